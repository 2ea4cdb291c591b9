import type { Segment } from "@/lib/formats/types";

// A paragraph of the reading view corrected as one text (the dashboard's in-place edit): the new text's words
// are given back to the paragraph's segments so that the cues keep their times. Browser-safe and pure.
//
// Words are whitespace-separated tokens. The old and new words are matched by a longest common subsequence
// (after the common prefix and suffix, which is all of it for a typical fix); a matched word stays in its
// segment. Between two matched words, new words that replace old ones go to those old words' segments, spread
// in proportion to how many each had; new words that replace nothing join the segment of the word before them
// (the one after, at the very start). A segment whose words are all unchanged is kept as it was (its text, with
// any line break, and its word times); a changed one gets its words joined by spaces and no word times (the
// server times them from its neighbours), and keeps its speaker; one left without words is dropped.

/** The most cells the matching table may have; past it the changed middle is taken as one replaced run. */
export const PARAGRAPH_LCS_CELLS = 250_000;

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== "");

/** The text a paragraph's editor starts with: its segments' texts, each on no more than one line. */
export function paragraphText(segments: readonly Segment[], from: number, to: number): string {
  const parts: string[] = [];
  for (let i = from; i < to; i++) parts.push(words(segments[i].text).join(" "));
  return parts.filter((part) => part !== "").join(" ");
}

/** Pairs [old index, new index] of a longest common subsequence of a and b, in order (bounded, see above). */
function matchWords(a: readonly string[], b: readonly string[]): [number, number][] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i++) pairs.push([i, i]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= PARAGRAPH_LCS_CELLS) {
    // lengths[i][j]: the LCS of a's middle from i and b's middle from j (suffixes), so the walk goes forwards.
    const width = m + 1;
    const lengths = new Int32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lengths[i * width + j] =
          a[head + i] === b[head + j]
            ? lengths[(i + 1) * width + j + 1] + 1
            : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[head + i] === b[head + j]) {
        pairs.push([head + i, head + j]);
        i++;
        j++;
      } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) i++;
      else j++;
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/**
 * `segments` with the paragraph [from, to) corrected to `text`. Returns `segments` itself when no word of it
 * changed; otherwise a new list in which the other segments are the same objects.
 */
export function redistributeParagraph(
  segments: readonly Segment[],
  from: number,
  to: number,
  text: string,
): readonly Segment[] {
  const oldWords: string[] = [];
  const oldSegment: number[] = [];
  const before: string[][] = [];
  for (let i = from; i < to; i++) {
    const own = words(segments[i].text);
    before.push(own);
    for (const word of own) {
      oldWords.push(word);
      oldSegment.push(i);
    }
  }
  const newWords = words(text);
  if (newWords.length === oldWords.length && newWords.every((word, k) => word === oldWords[k])) return segments;

  const owner = new Int32Array(newWords.length);
  const pairs = matchWords(oldWords, newWords);
  // Each run between matched words (and before the first, after the last): old a..b replaced by new c..d.
  let a = 0;
  let c = 0;
  for (let p = 0; p <= pairs.length; p++) {
    const [b, d] = p < pairs.length ? pairs[p] : [oldWords.length, newWords.length];
    const inserted = d - c;
    const replaced = b - a;
    for (let k = 0; k < inserted; k++) {
      owner[c + k] =
        replaced > 0
          ? oldSegment[a + Math.floor((k * replaced) / inserted)]
          : a > 0
            ? oldSegment[a - 1]
            : b < oldWords.length
              ? oldSegment[b]
              : from;
    }
    if (p < pairs.length) owner[d] = oldSegment[b];
    a = b + 1;
    c = d + 1;
  }

  const after: string[][] = before.map(() => []);
  newWords.forEach((word, k) => after[owner[k] - from].push(word));
  const corrected: Segment[] = [];
  for (let i = from; i < to; i++) {
    const own = after[i - from];
    const old = before[i - from];
    if (own.length === old.length && own.every((word, k) => word === old[k])) corrected.push(segments[i]);
    else if (own.length > 0) {
      // Its speaker stays: a save names every segment's speaker, so one left out would lose it (and the paragraph
      // would join the one before it, or split).
      const { start, end, speaker } = segments[i];
      corrected.push(
        speaker === undefined ? { start, end, text: own.join(" ") } : { start, end, text: own.join(" "), speaker },
      );
    }
  }
  return [...segments.slice(0, from), ...corrected, ...segments.slice(to)];
}
