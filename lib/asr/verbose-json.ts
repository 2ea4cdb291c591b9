import { fromWhisperLanguage } from "./language";
import type { Word } from "./types";

// OpenAI's `verbose_json` transcription answer, as OpenAI and the servers that copy its API send it: words
// with their times (top level or per segment), else segments whose time is shared out among their words,
// else the text over the whole duration; punctuation put back on OpenAI's bare words. Pure: no I/O.

/** One answer in OpenAI's verbose_json shape (compatible servers add or omit fields). */
export interface VerboseJson {
  text?: unknown;
  language?: unknown;
  duration?: unknown;
  words?: unknown;
  segments?: unknown;
}

export interface ChunkAnswer {
  words: Word[];
  text: string;
  language: string | null;
  duration: number | null;
}

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, c] of counts) if (best === null || c > counts.get(best)!) best = v;
  return best;
}

const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** Words from timed objects ({word|text, start, end}), dropping malformed ones. */
function timedWords(list: unknown): Word[] {
  if (!Array.isArray(list)) return [];
  const words: Word[] = [];
  for (const item of list as Array<Record<string, unknown>>) {
    const text = typeof item?.word === "string" ? item.word : typeof item?.text === "string" ? item.text : null;
    const start = finite(item?.start);
    const end = finite(item?.end);
    if (text === null || !text.trim() || start === null || end === null) continue;
    words.push({ text: text.trim(), start, end: Math.max(start, end) });
  }
  return words;
}

/**
 * Words spread over a segment's time in proportion to their length (when the server gives no word times),
 * marked `estimated`: they cut segments but are not shown as word times.
 */
function wordsInSegment(text: string, start: number, end: number): Word[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  let tokens = trimmed.split(/\s+/);
  if (tokens.length === 1 && NO_SPACE_SCRIPT.test(trimmed)) tokens = Array.from(trimmed);
  const total = tokens.reduce((n, t) => n + t.length + 1, 0);
  const span = Math.max(0, end - start);
  const words: Word[] = [];
  let at = 0;
  for (const token of tokens) {
    const share = ((token.length + 1) / total) * span;
    words.push({ text: token, start: start + at, end: start + at + share, estimated: true });
    at += share;
  }
  return words;
}

const PUNCTUATION = /\p{P}/u;
/** Punctuation inside words ("don't", "well-known") says nothing about whether a server punctuates words. */
const WORD_INTERNAL = /['’-]/;

function hasPunctuation(text: string): boolean {
  return Array.from(text).some((ch) => PUNCTUATION.test(ch) && !WORD_INTERNAL.test(ch));
}

/**
 * OpenAI's word timestamps come without punctuation ("Hello", "world"), which subtitles need to break at
 * sentence ends: take each word's trailing punctuation from the full text, matching the words in order.
 * Words that already carry punctuation (other servers) are left alone.
 */
export function punctuateWords(words: readonly Word[], text: string): Word[] {
  if (!text || words.some((w) => hasPunctuation(w.text))) return [...words];
  const lowerText = text.toLowerCase();
  let cursor = 0;
  return words.map((w) => {
    const needle = w.text.toLowerCase();
    const at = lowerText.indexOf(needle, cursor);
    if (at < 0 || at - cursor > 40 + needle.length) return w;
    let after = at + needle.length;
    let trailing = "";
    while (after < text.length && PUNCTUATION.test(text[after]) && !WORD_INTERNAL.test(text[after]))
      trailing += text[after++];
    cursor = after;
    return trailing ? { ...w, text: w.text + trailing } : w;
  });
}

export function parseVerboseJson(json: VerboseJson): ChunkAnswer {
  const text = typeof json.text === "string" ? json.text.trim() : "";
  const segments = Array.isArray(json.segments) ? (json.segments as Array<Record<string, unknown>>) : [];
  let words = timedWords(json.words);
  if (words.length === 0) words = segments.flatMap((s) => timedWords(s?.words));
  if (words.length === 0) {
    words = segments.flatMap((s) => {
      const start = finite(s?.start);
      const end = finite(s?.end);
      return typeof s?.text === "string" && start !== null && end !== null ? wordsInSegment(s.text, start, end) : [];
    });
  }
  const duration = finite(json.duration);
  if (words.length === 0 && text && duration !== null) words = wordsInSegment(text, 0, duration);
  words.sort((a, b) => a.start - b.start);
  return {
    words: punctuateWords(words, text || segments.map((s) => (typeof s?.text === "string" ? s.text : "")).join(" ")),
    text,
    language: fromWhisperLanguage(json.language),
    duration,
  };
}
