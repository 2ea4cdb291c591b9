import { normalizeCues, totalTextLength, type NormalizedCues } from "./normalize";
import type { Segment } from "./types";
import { Utf16Writer, clockWidth, textEscaping, writeText } from "./writer";

const NL = 10;
const DOT = 46;

/** `&`, `<` and `>` escaped, so cue text can't start tags or entities, nor contain a `-->` arrow. */
const VTT_TEXT = textEscaping({ "&": "&amp;", "<": "&lt;", ">": "&gt;" });

/**
 * WebVTT: `WEBVTT` signature, then cues `HH:MM:SS.mmm --> HH:MM:SS.mmm` with one escaped text
 * line each (whitespace, newlines included, is collapsed, so a cue never contains a blank line),
 * blank lines between cues, `\n` line endings. Segments are normalized first (normalizeSegments rules).
 * A cue whose speaker the source named opens with a voice span, `<v Name>` (the name escaped like text).
 */
export function renderVtt(segments: readonly Segment[]): string {
  const cues = normalizeCues(segments);
  if (cues.count === 0) return "WEBVTT\n";
  const perCue = 2 * clockWidth(cues.endMs[cues.count - 1]) + 16; // the last end is the latest time
  return Utf16Writer.build(8 + totalTextLength(cues) + cues.count * perCue, (w) => {
    w.raw("WEBVTT\n");
    writeVttCues(w, cues, perCue);
  });
}

function writeVttCues(w: Utf16Writer, cues: NormalizedCues, perCue: number): void {
  const { count, startMs, endMs, text } = cues;
  for (let i = 0; i < count; i++) {
    w.reserve(perCue);
    w.buf[w.pos++] = NL;
    w.clock(startMs[i], DOT);
    w.raw(" --> ");
    w.clock(endMs[i], DOT);
    w.buf[w.pos++] = NL;
    const speaker = cues.speaker[i];
    if (speaker !== undefined) {
      w.reserve(3);
      w.raw("<v ");
      writeText(w, speaker, VTT_TEXT);
      w.reserve(1);
      w.raw(">");
    }
    writeText(w, text[i], VTT_TEXT);
    w.reserve(1);
    w.buf[w.pos++] = NL;
  }
}
