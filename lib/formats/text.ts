import { normalizeCues, totalTextLength, type NormalizedCues } from "./normalize";
import { paragraphStarts, type ParagraphRules } from "./paragraphs";
import type { Segment } from "./types";
import { formatShortClock } from "./time";
import { PLAIN, Utf16Writer, writeText } from "./writer";

/** Sentence-end breaks after ~45 s, breaks on pauses > 2 s, and a hard break at 120 s for unpunctuated captions. */
export const TEXT_PARAGRAPHS: ParagraphRules = { minSeconds: 45, maxSeconds: 120, pauseSeconds: 2 };

/**
 * Plain text: segment texts joined with spaces into paragraphs separated by a blank line,
 * no timestamps, trailing newline. Empty transcript → "". Segments are normalized first. Where the source
 * names speakers, a change of speaker starts a paragraph, opened by `Name: `.
 */
export function renderText(segments: readonly Segment[]): string {
  return render(segments, false);
}

/**
 * The same paragraphs, each opened by its start time in brackets (`[01:05] `, `[1:02:05] `): what the
 * dashboard's "Copy with timestamps" gives.
 */
export function renderTimestampedText(segments: readonly Segment[]): string {
  return render(segments, true);
}

function render(segments: readonly Segment[], stamps: boolean): string {
  const cues = normalizeCues(segments);
  if (cues.count === 0) return "";
  const starts = paragraphStarts(cues, TEXT_PARAGRAPHS);
  return Utf16Writer.build(totalTextLength(cues) + cues.count + (2 + (stamps ? 12 : 0)) * starts.length + 1, (w) => {
    writeParagraphs(w, cues, starts, stamps);
    w.reserve(1);
    w.buf[w.pos++] = 10;
  });
}

function writeParagraphs(w: Utf16Writer, cues: NormalizedCues, starts: number[], stamps: boolean): void {
  const { count, text } = cues;
  let next = 1; // index into starts of the next paragraph
  for (let i = 0; i < count; i++) {
    w.reserve(2);
    const opens = i === 0 || (next < starts.length && starts[next] === i);
    if (i > 0 && opens) {
      w.buf[w.pos++] = 10;
      w.buf[w.pos++] = 10;
      next++;
    } else if (i > 0) {
      w.buf[w.pos++] = 32;
    }
    if (stamps && opens) {
      const stamp = `[${formatShortClock(Math.floor(cues.startMs[i] / 1000))}] `;
      w.reserve(stamp.length);
      w.raw(stamp);
    }
    const who = cues.speaker[i];
    if (opens && who !== undefined && (i === 0 || cues.speaker[i - 1] !== who)) {
      writeText(w, who, PLAIN);
      w.reserve(2);
      w.raw(": ");
    }
    writeText(w, text[i], PLAIN);
  }
}
