import type { TimedSegment } from "@/lib/formats/paragraphs";

// The lines of a public page (/t/{slug}) as its props carry them: [start, end, text] and, where the segment's words
// have times, the words' starts; where the speaker changes, the new speaker's name. The props travel in the page's
// React Server Components payload, and on a cached page every byte counts
// (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md): a word is one number, its start in
// centiseconds after the line's start (a 38-minute automatic caption track: ~6,300 words, ~25 kB); its text is the
// line's text split at spaces, so the starts are sent only when the counts agree (else the line has no word times).
// A speaker is named once per change (an hour's conversation turns a few hundred times, not on each of its ~1,000
// lines), and the lines after it are read as theirs until the next change ("" where the source stops naming one).

/**
 * A line: start and end in seconds, text, optionally each word's start (centiseconds after `start`; null where the
 * line has none but names a speaker), and the speaker from this line on, where it changes.
 */
export type Line = [start: number, end: number, text: string, words?: number[] | null, speaker?: string];

/** The words of a line's text, as the page draws them. */
const tokens = (text: string) => text.split(" ");

/**
 * A segment as a public line: word starts only where every word of the text has one; the speaker where it differs
 * from the segment before (`segments.map(publicLine)` passes the index and the list; alone, a named speaker is sent).
 */
export function publicLine(segment: TimedSegment, index = 0, segments?: readonly TimedSegment[]): Line {
  const line: Line = [segment.start, segment.end, segment.text];
  const words = segment.words;
  if (words && words.length > 0 && words.length === tokens(segment.text).length)
    line.push(words.map((word) => Math.max(0, Math.round((word.start - segment.start) * 100))));
  const before = index > 0 ? segments?.[index - 1]?.speaker : undefined;
  const speaker = segment.speaker;
  if (speaker !== before && (speaker !== undefined || before !== undefined)) {
    if (line.length === 3) line.push(null);
    line.push(speaker ?? "");
  }
  return line;
}

/** The segments a page's lines stand for; `withWords: false` leaves the word times out. */
export function lineSegments(lines: readonly Line[], withWords = true): TimedSegment[] {
  let who: string | undefined;
  return lines.map(([start, end, text, offsets, speaker]) => {
    if (speaker !== undefined) who = speaker || undefined;
    const segment: TimedSegment = { start, end, text };
    if (who !== undefined) segment.speaker = who;
    const words = tokens(text);
    if (!withWords || !offsets || offsets.length !== words.length) return segment;
    const starts = offsets.map((cs) => Math.round((start + cs / 100) * 1000) / 1000);
    segment.words = words.map((word, k) => ({
      start: starts[k],
      end: k + 1 < starts.length ? starts[k + 1] : end,
      text: word,
    }));
    return segment;
  });
}
