import type { EditSegment } from "./types.js";

export interface FindReplaceOptions {
  /** Match case exactly (default: no). */
  caseSensitive?: boolean;
  /** Only whole words (default: yes): "grit" does not touch "gritty". */
  wholeWord?: boolean;
}

/**
 * `segments` with every occurrence of `find` replaced by `replace`, and how many were replaced. Times are left
 * as they are: the server keeps the times of the words that did not change.
 */
export function replaceInSegments<S extends { start: number; end: number; text: string }>(
  segments: readonly S[],
  find: string,
  replace: string,
  options: FindReplaceOptions = {},
): { segments: EditSegment[]; replaced: number } {
  if (find === "") return { segments: segments.map(({ start, end, text }) => ({ start, end, text })), replaced: 0 };
  const escaped = find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    options.wholeWord === false ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`,
    options.caseSensitive ? "gu" : "giu",
  );
  let replaced = 0;
  const out = segments.map(({ start, end, text }) => ({
    start,
    end,
    text: text.replace(pattern, () => {
      replaced += 1;
      return replace;
    }),
  }));
  return { segments: out, replaced };
}
