import type { Segment } from "@/lib/formats/types";

/**
 * The most word times stored with one transcript (docs/decisions/0006-word-times-where-the-source-measured-them.md):
 * about 11 hours of speech at 150 words a minute. A word costs some 45 bytes of JSON, so this keeps a transcript's
 * stored words under ~4.5 MB; past it, the later segments are stored without their words (their text and times are
 * untouched).
 */
export const MAX_STORED_WORDS = 100_000;

/**
 * The segments as stored: each segment's words kept, in order, while the transcript's total stays within
 * `max` (MAX_STORED_WORDS); the segments after that keep no `words`. Segments without words are returned as
 * they are; the input is not changed.
 */
export function boundStoredWords(segments: readonly Segment[], max = MAX_STORED_WORDS): Segment[] {
  let total = 0;
  let over = false;
  return segments.map((s) => {
    if (s.words === undefined) return s;
    if (!over && total + s.words.length <= max) {
      total += s.words.length;
      return s;
    }
    over = true;
    const { words: _words, ...rest } = s;
    return rest;
  });
}
