import { normalizeCues, normalizeWords, totalTextLength, type NormalizedCues } from "./normalize";
import type { Segment } from "./types";
import { Utf16Writer, textEscaping, writeText } from "./writer";

/**
 * JSON string contents as JSON.stringify writes them. Control characters never get here (they
 * are whitespace, collapsed by writeText), so only `"`, `\` and lone surrogates need escaping.
 */
const JSON_TEXT = textEscaping({ '"': '\\"', "\\": "\\\\" }, { loneSurrogates: true });

/** Integer ms → the digits JSON.stringify(ms / 1000) prints (ms is a safe non-negative integer < 1e13). */
function writeSeconds(w: Utf16Writer, ms: number): void {
  const whole = Math.floor(ms / 1000);
  const f = (ms - whole * 1000) | 0;
  w.int(whole);
  if (f === 0) return;
  const buf = w.buf;
  let p = w.pos;
  const d1 = (f / 100) | 0;
  const d2 = ((f - d1 * 100) / 10) | 0;
  const d3 = f - d1 * 100 - d2 * 10;
  buf[p++] = 46; // .
  buf[p++] = 48 + d1;
  if (d2 !== 0 || d3 !== 0) buf[p++] = 48 + d2;
  if (d3 !== 0) buf[p++] = 48 + d3;
  w.pos = p;
}

/**
 * JSON: `{"segments":[{"start":s,"end":s,"text":"..."}...]}` with the normalized segments (times
 * in seconds with millisecond precision); a segment whose source names its speaker has `"speaker":"..."`
 * after its text (no `speaker` key otherwise); a segment whose source timed its words also has
 * `"words":[{"start":s,"end":s,"text":"..."}...]` after its text (normalizeWords rules), and no
 * `words` key otherwise. Byte-for-byte what JSON.stringify({ segments:
 * normalizeSegments(segments) }) gives, written directly from the normalized arrays for speed.
 */
export function renderJson(segments: readonly Segment[]): string {
  const cues = normalizeCues(segments);
  return Utf16Writer.build(16 + totalTextLength(cues) + cues.count * PER_CUE, (w) => {
    w.raw('{"segments":[');
    writeJsonCues(w, cues);
    w.reserve(2);
    w.raw("]}");
  });
}

/** Room for one cue besides its text: keys, punctuation and two numbers. */
const PER_CUE = 64;

function writeJsonCues(w: Utf16Writer, cues: NormalizedCues): void {
  const { count, startMs, endMs, text } = cues;
  for (let i = 0; i < count; i++) {
    w.reserve(PER_CUE);
    w.raw(i === 0 ? '{"start":' : ',{"start":');
    writeSeconds(w, startMs[i]);
    w.raw(',"end":');
    writeSeconds(w, endMs[i]);
    w.raw(',"text":"');
    writeText(w, text[i], JSON_TEXT);
    w.reserve(2);
    w.raw('"');
    const speaker = cues.speaker[i];
    if (speaker !== undefined) {
      w.reserve(16);
      w.raw(',"speaker":"');
      writeText(w, speaker, JSON_TEXT);
      w.reserve(1);
      w.raw('"');
    }
    const words = cues.words[i];
    if (words !== undefined) writeJsonWords(w, words, startMs[i], endMs[i]);
    w.reserve(1);
    w.raw("}");
  }
}

function writeJsonWords(
  w: Utf16Writer,
  raw: NonNullable<NormalizedCues["words"][number]>,
  segStartMs: number,
  segEndMs: number,
): void {
  const words = normalizeWords(raw, segStartMs, segEndMs);
  if (words.count === 0) return;
  w.reserve(PER_CUE);
  w.raw(',"words":[');
  for (let k = 0; k < words.count; k++) {
    w.reserve(PER_CUE);
    w.raw(k === 0 ? '{"start":' : ',{"start":');
    writeSeconds(w, words.startMs[k]);
    w.raw(',"end":');
    writeSeconds(w, words.endMs[k]);
    w.raw(',"text":"');
    writeText(w, words.text[k], JSON_TEXT);
    w.reserve(2);
    w.raw('"}');
  }
  w.reserve(2);
  w.raw("]");
}
