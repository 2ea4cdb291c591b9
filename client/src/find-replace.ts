import type { EditSegment } from "./types.js";

export interface FindReplaceOptions {
  /** Match case exactly (default: no). */
  caseSensitive?: boolean;
  /** Only whole words (default: yes): "grit" does not touch "gritty". */
  wholeWord?: boolean;
}

/**
 * `segments` with every occurrence of `find` replaced by `replace`, and how many were replaced, as a correction
 * sends them: each segment's times, text and speaker. Word times are left to the server, which keeps them for
 * every word that did not change (a segment without a match keeps all of its own).
 */
export function replaceInSegments<S extends { start: number; end: number; text: string; speaker?: string }>(
  segments: readonly S[],
  find: string,
  replace: string,
  options: FindReplaceOptions = {},
): { segments: EditSegment[]; replaced: number } {
  const sent = ({ start, end, speaker }: S, text: string): EditSegment =>
    speaker === undefined ? { start, end, text } : { start, end, text, speaker };
  if (find === "") return { segments: segments.map((s) => sent(s, s.text)), replaced: 0 };
  const escaped = find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    options.wholeWord === false ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`,
    options.caseSensitive ? "gu" : "giu",
  );
  let replaced = 0;
  const out = segments.map((s) =>
    sent(
      s,
      s.text.replace(pattern, () => {
        replaced += 1;
        return replace;
      }),
    ),
  );
  return { segments: out, replaced };
}
