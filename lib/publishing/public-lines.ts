import type { TimedSegment } from "@/lib/formats/paragraphs";

// The lines of a public page (/t/{slug}) as its props carry them: [start, end, text] and, where the segment's words
// have times, the words' starts. The props travel in the page's React Server Components payload, and on a cached page
// every byte counts (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md): a word is one number, its
// start in centiseconds after the line's start (a 38-minute automatic caption track: ~6,300 words, ~25 kB); its text
// is the line's text split at spaces, so the starts are sent only when the counts agree (else the line has no word
// times).

/** A line: start and end in seconds, text, and optionally each word's start, centiseconds after `start`. */
export type Line = [start: number, end: number, text: string, words?: number[]];

/** The words of a line's text, as the page draws them. */
const tokens = (text: string) => text.split(" ");

/** A segment as a public line: word starts only where every word of the text has one. */
export function publicLine(segment: TimedSegment): Line {
  const line: Line = [segment.start, segment.end, segment.text];
  const words = segment.words;
  if (!words || words.length === 0 || words.length !== tokens(segment.text).length) return line;
  line.push(words.map((word) => Math.max(0, Math.round((word.start - segment.start) * 100))));
  return line;
}

/** The segments a page's lines stand for; `withWords: false` leaves the word times out. */
export function lineSegments(lines: readonly Line[], withWords = true): TimedSegment[] {
  return lines.map(([start, end, text, offsets]) => {
    const words = tokens(text);
    if (!withWords || !offsets || offsets.length !== words.length) return { start, end, text };
    const starts = offsets.map((cs) => Math.round((start + cs / 100) * 1000) / 1000);
    return {
      start,
      end,
      text,
      words: words.map((word, k) => ({
        start: starts[k],
        end: k + 1 < starts.length ? starts[k + 1] : end,
        text: word,
      })),
    };
  });
}
