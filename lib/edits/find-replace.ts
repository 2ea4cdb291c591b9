import type { Segment } from "@/lib/formats/types";
import { withText } from "@/lib/edits/segment-edits";

// Find and replace across a transcript: the dashboard's editor, MCP's edit_transcript and the figures use it.
// (@verbatim/client has the same function, replaceInSegments, since it cannot import lib/.) Whole words by
// default ("grit" leaves "gritty" alone), any case by default, the pattern taken literally. A changed segment keeps
// its times, its speaker and the times of the words that did not change (segment-edits.ts).

export interface FindReplaceOptions {
  caseSensitive?: boolean;
  wholeWord?: boolean;
}

/** A RegExp finding `find` literally (global, Unicode); null for an empty `find`. */
export function findPattern(find: string, options: FindReplaceOptions = {}): RegExp | null {
  if (find === "") return null;
  const escaped = find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    options.wholeWord === false ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`,
    options.caseSensitive ? "gu" : "giu",
  );
}

/** `segments` with `find` replaced everywhere, and how many times; unchanged segments are the same objects. */
export function replaceInSegments<S extends Segment>(
  segments: readonly S[],
  find: string,
  replace: string,
  options: FindReplaceOptions = {},
): { segments: S[]; replaced: number } {
  const pattern = findPattern(find, options);
  if (!pattern) return { segments: [...segments], replaced: 0 };
  let replaced = 0;
  const out = segments.map((s) => {
    let here = 0;
    const text = s.text.replace(pattern, () => {
      here += 1;
      return replace;
    });
    replaced += here;
    return here === 0 ? s : withText(s, text);
  });
  return { segments: out, replaced };
}

/** How many times `find` occurs in `segments` (nothing is replaced). */
export function countInSegments(segments: readonly Segment[], find: string, options: FindReplaceOptions = {}): number {
  const pattern = findPattern(find, options);
  if (!pattern) return 0;
  let count = 0;
  for (const s of segments) for (const _ of s.text.matchAll(pattern)) count += 1;
  return count;
}
