import type { Segment } from "@/lib/formats/types";

// Find and replace across a transcript: the dashboard's editor, MCP's edit_transcript and the figures use it.
// (@verbatim/client has the same function, replaceInSegments, since it cannot import lib/.) Whole words by
// default ("grit" leaves "gritty" alone), any case by default, the pattern taken literally. Times are left as
// they are; saving keeps the times of the words that did not change (retime.ts).

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
): { segments: (S | Segment)[]; replaced: number } {
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
    return here === 0 ? s : { start: s.start, end: s.end, text };
  });
  return { segments: out, replaced };
}
