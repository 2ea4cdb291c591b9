import { normalizeCues, totalTextLength, type NormalizedCues } from "./normalize";
import type { Segment } from "./types";
import { Utf16Writer, clockWidth, textEscaping, writeText } from "./writer";

const NL = 10;
const COMMA = 44;

/** SubRip has no escaping; only `-->`-like arrows (which could read as a timing line) become `->`. */
const SRT_TEXT = textEscaping({}, { arrows: true });

/**
 * SubRip: cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, one text line, a blank line
 * between cues, `\n` line endings and a trailing newline. Empty transcript → "".
 * Segments are normalized first (normalizeSegments rules). Where the source names speakers, the cue where
 * the speaker changes opens with `Name: ` (the way podcasts write them).
 */
export function renderSrt(segments: readonly Segment[]): string {
  const cues = normalizeCues(segments);
  if (cues.count === 0) return "";
  const perCue = 2 * clockWidth(cues.endMs[cues.count - 1]) + 32; // number, timing line, newlines (the last end is the latest time)
  return Utf16Writer.build(totalTextLength(cues) + cues.count * perCue, (w) => writeSrtCues(w, cues, perCue));
}

function writeSrtCues(w: Utf16Writer, cues: NormalizedCues, perCue: number): void {
  const { count, startMs, endMs, text, speaker } = cues;
  for (let i = 0; i < count; i++) {
    w.reserve(perCue);
    if (i > 0) w.buf[w.pos++] = NL;
    w.int(i + 1);
    w.buf[w.pos++] = NL;
    w.clock(startMs[i], COMMA);
    w.raw(" --> ");
    w.clock(endMs[i], COMMA);
    w.buf[w.pos++] = NL;
    const who = speaker[i];
    if (who !== undefined && (i === 0 || speaker[i - 1] !== who)) {
      writeText(w, who, SRT_TEXT);
      w.reserve(2);
      w.raw(": ");
    }
    writeText(w, text[i], SRT_TEXT);
    w.reserve(1);
    w.buf[w.pos++] = NL;
  }
}
