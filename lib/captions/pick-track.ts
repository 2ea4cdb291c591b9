import type { CaptionTrack } from "@/lib/captions/types";

const primary = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];

/**
 * The track for a requested language: exact tag first, then the same primary language
 * (`en-US` ↔ `en`), manual captions before auto-generated ones at each step.
 */
export function pickTrack(tracks: readonly CaptionTrack[], lang: string): CaptionTrack | null {
  const wanted = lang.toLowerCase().replace(/_/g, "-");
  const byKind = (list: CaptionTrack[]) => list.find((t) => t.kind === "manual") ?? list[0] ?? null;
  const exact = tracks.filter((t) => t.lang.toLowerCase().replace(/_/g, "-") === wanted);
  if (exact.length > 0) return byKind(exact);
  const samePrimary = tracks.filter((t) => primary(t.lang) === primary(wanted));
  // Among same-language variants, prefer a plain tag ("en") over a regional one ("en-GB").
  samePrimary.sort((a, b) => Number(a.lang.includes("-")) - Number(b.lang.includes("-")));
  return byKind(samePrimary);
}
