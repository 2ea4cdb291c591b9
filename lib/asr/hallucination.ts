import { deflateSync } from "node:zlib";

import type { Word } from "./types";

// Hallucination guards: what Whisper-family recognisers are known to invent, found in the words they
// return and dropped before anything is stored. Pure (no I/O); the recognisers call guardWords on each
// answer. The cases it is tested on are real outputs from public issue reports
// (test/fixtures/asr-hallucinations/README.md).
//
// 1. A loop: the same phrase (1–24 words) said again and again back to back. The first saying is kept, the
//    repeats dropped (a phrase of one word needs 5 in a row, longer phrases 3: "no, no, no" is speech).
// 2. Whisper's own checks on a 30-s window, where the engine reports them (verbose_json segments):
//    no_speech_prob > 0.6 together with avg_logprob < -1 (Whisper's "silent window" rule), and
//    compression_ratio > 2.4 (text that repeats itself). Engines that report nothing are measured here:
//    the words of each 30-s window are compressed with zlib, as Whisper does.
// 3. Text over silence: words whose middle lies outside every speech region the voice-activity detector
//    found (./vad.ts), beyond a tolerance for timestamps that wobble.
// 4. Credit lines of subtitle communities that the model learned from its training captions
//    ("Subtitles by the Amara.org community"): nobody says these, so they are dropped wherever they are.

/** Whisper's compression_ratio_threshold (openai/whisper transcribe.py). */
export const COMPRESSION_RATIO_THRESHOLD = 2.4;
/** Whisper's no_speech_threshold and logprob_threshold. */
export const NO_SPEECH_THRESHOLD = 0.6;
export const LOGPROB_THRESHOLD = -1;
/** Whisper decodes 30-s windows; the compression check is per window. */
export const WINDOW_SECONDS = 30;
/** A window with fewer characters than this is too short for its compression ratio to mean anything. */
const MIN_CHARS_FOR_RATIO = 60;
const MAX_PHRASE_WORDS = 24;
/** A word's middle may lie this far outside a speech region (padding, timestamp wobble). */
const SILENCE_TOLERANCE_SECONDS = 1;

export type HallucinationReason = "loop" | "no_speech" | "compression_ratio" | "over_silence" | "credit_line";

/** A time range of the audio, seconds. */
export interface TimeRange {
  start: number;
  end: number;
}

/** What an engine says about one decoded window (verbose_json segments; whisper.cpp does not report them). */
export interface SegmentStats extends TimeRange {
  noSpeechProb?: number | null;
  avgLogprob?: number | null;
  compressionRatio?: number | null;
}

export interface GuardOptions {
  /** The speech regions found in the audio; words outside them are dropped. Omitted: no silence check. */
  speech?: readonly TimeRange[];
  /** The engine's own per-window figures, when it reports them. */
  segments?: readonly SegmentStats[];
}

export interface GuardResult {
  words: Word[];
  /** How many words each rule dropped. */
  dropped: Partial<Record<HallucinationReason, number>>;
}

/** Whisper's compression ratio: the text's UTF-8 bytes over its zlib-compressed bytes. */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length === 0) return 0;
  return bytes.length / deflateSync(bytes).length;
}

function key(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Indexes of words that repeat the phrase just before them (the loop's copies after the first). */
export function loopRepeats(words: readonly Pick<Word, "text">[]): Set<number> {
  const keys = words.map((w) => key(w.text));
  const drop = new Set<number>();
  let i = 0;
  while (i < keys.length) {
    let best: { length: number; copies: number } | null = null;
    for (let n = 1; n <= MAX_PHRASE_WORDS && i + 2 * n <= keys.length; n++) {
      if (!keys.slice(i, i + n).some(Boolean)) continue;
      let copies = 1;
      while (
        i + (copies + 1) * n <= keys.length &&
        keys.slice(i + copies * n, i + (copies + 1) * n).every((k, j) => k === keys[i + j])
      )
        copies++;
      const needed = n === 1 ? 5 : 3;
      if (copies >= needed && (!best || copies * n > best.copies * best.length)) best = { length: n, copies };
    }
    if (best) {
      for (let j = i + best.length; j < i + best.length * best.copies; j++) drop.add(j);
      i += best.length * best.copies;
    } else {
      i++;
    }
  }
  return drop;
}

const CREDIT_LINES: readonly RegExp[] = [
  /amara\.?\s*org/i, // "Subtitles by the Amara.org community", "Sottotitoli creati dalla comunità Amara.org"
  /subtitles by the .{0,40}community/i,
];

function overlaps(a: TimeRange, b: TimeRange): boolean {
  return a.start < b.end && b.start < a.end;
}

function mid(w: TimeRange): number {
  return (w.start + w.end) / 2;
}

/** The words of each window (Whisper's 30 s) whose text compresses better than Whisper allows. */
function overCompressed(words: readonly Word[]): Set<number> {
  const drop = new Set<number>();
  const byWindow = new Map<number, number[]>();
  words.forEach((w, i) => {
    const window = Math.floor(w.start / WINDOW_SECONDS);
    byWindow.set(window, [...(byWindow.get(window) ?? []), i]);
  });
  for (const indexes of byWindow.values()) {
    const text = indexes.map((i) => words[i].text).join(" ");
    if (text.length >= MIN_CHARS_FOR_RATIO && compressionRatio(text) > COMPRESSION_RATIO_THRESHOLD)
      for (const i of indexes) drop.add(i);
  }
  return drop;
}

/** Drops what the rules above find; the words left keep their order and times. */
export function guardWords(input: readonly Word[], options: GuardOptions = {}): GuardResult {
  const dropped: GuardResult["dropped"] = {};
  const count = (reason: HallucinationReason, n: number) => {
    if (n > 0) dropped[reason] = (dropped[reason] ?? 0) + n;
  };
  let words = [...input];

  // The engine's own verdict on a window comes first: a silent or looping window goes whole.
  if (options.segments?.length) {
    const bad = options.segments
      .map((s) => {
        if (
          s.noSpeechProb != null &&
          s.avgLogprob != null &&
          s.noSpeechProb > NO_SPEECH_THRESHOLD &&
          s.avgLogprob < LOGPROB_THRESHOLD
        )
          return { range: s, reason: "no_speech" as const };
        if (s.compressionRatio != null && s.compressionRatio > COMPRESSION_RATIO_THRESHOLD)
          return { range: s, reason: "compression_ratio" as const };
        return null;
      })
      .filter((b) => b !== null);
    words = words.filter((w) => {
      const hit = bad.find((b) => mid(w) >= b.range.start && mid(w) <= b.range.end);
      if (hit) count(hit.reason, 1);
      return !hit;
    });
  }

  if (options.speech) {
    const regions = options.speech.map((r) => ({
      start: r.start - SILENCE_TOLERANCE_SECONDS,
      end: r.end + SILENCE_TOLERANCE_SECONDS,
    }));
    const before = words.length;
    words = words.filter((w) => regions.some((r) => overlaps(r, { start: mid(w), end: mid(w) + 1e-6 })));
    count("over_silence", before - words.length);
  }

  const repeats = loopRepeats(words);
  count("loop", repeats.size);
  words = words.filter((_, i) => !repeats.has(i));

  const compressed = overCompressed(words);
  count("compression_ratio", compressed.size);
  words = words.filter((_, i) => !compressed.has(i));

  // Credit lines: the run of words that spells one, found in the joined text.
  const credit = creditLineWords(words);
  count("credit_line", credit.size);
  words = words.filter((_, i) => !credit.has(i));

  return { words, dropped };
}

/** Indexes of the words that make up a subtitle community's credit line (the sentence it is in). */
function creditLineWords(words: readonly Word[]): Set<number> {
  const drop = new Set<number>();
  let sentence: number[] = [];
  const flush = () => {
    const text = sentence.map((i) => words[i].text).join(" ");
    if (CREDIT_LINES.some((re) => re.test(text))) for (const i of sentence) drop.add(i);
    sentence = [];
  };
  words.forEach((w, i) => {
    sentence.push(i);
    if (/[.!?。！？]$/.test(w.text)) flush();
  });
  flush();
  return drop;
}

/** The per-window figures of a verbose_json answer's segments (OpenAI and the servers that copy it). */
export function segmentStats(json: { segments?: unknown }): SegmentStats[] {
  if (!Array.isArray(json.segments)) return [];
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return (json.segments as Array<Record<string, unknown>>).flatMap((s) => {
    const start = num(s?.start);
    const end = num(s?.end);
    if (start === null || end === null) return [];
    return [
      {
        start,
        end,
        noSpeechProb: num(s.no_speech_prob),
        avgLogprob: num(s.avg_logprob),
        compressionRatio: num(s.compression_ratio),
      },
    ];
  });
}
