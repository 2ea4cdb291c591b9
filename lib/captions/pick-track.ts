import type { CaptionTrack } from "@/lib/captions/types";

const primary = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];
const norm = (tag: string) => tag.toLowerCase().replace(/_/g, "-");

/**
 * The track for a requested language: exact tag first, then the same primary language
 * (`en-US` ↔ `en`), manual captions before auto-generated ones at each step. Machine translations
 * come last: one is picked only when no original track (manual or auto) has the language.
 */
export function pickTrack(tracks: readonly CaptionTrack[], lang: string): CaptionTrack | null {
  const wanted = norm(lang);
  const originals = tracks.filter((t) => t.kind !== "translated");
  const translations = tracks.filter((t) => t.kind === "translated");
  return match(originals, wanted) ?? match(translations, wanted);
}

function match(tracks: readonly CaptionTrack[], wanted: string): CaptionTrack | null {
  const byKind = (list: CaptionTrack[]) => list.find((t) => t.kind === "manual") ?? list[0] ?? null;
  const exact = tracks.filter((t) => norm(t.lang) === wanted);
  if (exact.length > 0) return byKind(exact);
  const samePrimary = tracks.filter((t) => primary(t.lang) === primary(wanted));
  // Among same-language variants, prefer a plain tag ("en") over a regional one ("en-GB").
  samePrimary.sort((a, b) => Number(a.lang.includes("-")) - Number(b.lang.includes("-")));
  return byKind(samePrimary);
}
