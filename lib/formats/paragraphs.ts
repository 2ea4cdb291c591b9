import { isSpaceCode, type NormalizedCues } from "./normalize";
import type { Segment } from "./types";

export interface ParagraphRules {
  /** Break at a sentence end once the paragraph spans at least this many seconds. */
  minSeconds: number;
  /** Break after any segment once the paragraph spans at least this many seconds (unpunctuated captions). */
  maxSeconds: number;
  /** Break when the silence before the next segment is longer than this many seconds. */
  pauseSeconds: number;
}

// Terminal punctuation: . ! ? … 。 ！ ？ ‼ ⁇ ⁈ ⁉
const TERMINATORS = new Set([0x2e, 0x21, 0x3f, 0x2026, 0x3002, 0xff01, 0xff1f, 0x203c, 0x2047, 0x2048, 0x2049]);
// Closing quotes/brackets that may follow it: " ' ” ’ ) ] » 」 』
const CLOSERS = new Set([0x22, 0x27, 0x201d, 0x2019, 0x29, 0x5d, 0xbb, 0x300d, 0x300f]);

/**
 * True when the text ends a sentence: terminal punctuation, optionally followed by closing
 * quotes/brackets (and trailing whitespace, since cue text is cleaned only when written).
 */
export function endsSentence(text: string): boolean {
  let i = text.length - 1;
  while (i >= 0 && isSpaceCode(text.charCodeAt(i))) i--;
  while (i >= 0 && CLOSERS.has(text.charCodeAt(i))) i--;
  return i >= 0 && TERMINATORS.has(text.charCodeAt(i));
}

/**
 * Groups normalized cues into paragraphs. Returns the index of the first cue of each paragraph
 * (ascending); paragraph k spans [starts[k], starts[k + 1]) (the last one runs to the end).
 * Where the source names speakers, a change of speaker also starts a paragraph.
 */
export function paragraphStarts(cues: NormalizedCues, rules: ParagraphRules): number[] {
  const starts: number[] = [];
  const n = cues.count;
  if (n === 0) return starts;
  const { startMs, endMs, text, speaker } = cues;
  const minMs = rules.minSeconds * 1000;
  const maxMs = rules.maxSeconds * 1000;
  const pauseMs = rules.pauseSeconds * 1000;
  starts.push(0);
  let paraStart = startMs[0];
  for (let i = 0; i + 1 < n; i++) {
    const end = endMs[i];
    const elapsed = end - paraStart;
    if (
      startMs[i + 1] - end > pauseMs ||
      elapsed >= maxMs ||
      (elapsed >= minMs && endsSentence(text[i])) ||
      speaker[i + 1] !== speaker[i]
    ) {
      starts.push(i + 1);
      paraStart = startMs[i + 1];
    }
  }
  return starts;
}

// ---------------------------------------------------------------------------------------------
// The reading view's paragraphs: the same rules over a transcript's segments as the API
// returns them (seconds), for the dashboard's viewer and the public page. Pure and browser-safe.

/** A timed piece of text as the reading view gets it: a Segment, with `words` where the source times each word. */
export type TimedSegment = Segment;

/** One paragraph of the reading view: segments [from, to), starting at `start` seconds. */
export interface ReadingParagraph {
  from: number;
  to: number;
  start: number;
  /** The name to show before it: its speaker, where the source names one and it differs from the paragraph before. */
  speaker?: string;
}

/**
 * The reading view's rules: a paragraph ends at a sentence end once it is 20 s long (punctuated sources), at a
 * pause over 1.5 s (every source), and at the latest after 45 s (unpunctuated automatic captions): short enough
 * to find a moment in, long enough to read as prose.
 */
export const READING_PARAGRAPHS: ParagraphRules = { minSeconds: 20, maxSeconds: 45, pauseSeconds: 1.5 };

/**
 * Groups segments into paragraphs with paragraphStarts' rules. `breaks`: segment indexes that must start a
 * paragraph (chapters). Segments are in start order (the API's invariant); times are taken as they are.
 */
export function readingParagraphs(
  segments: readonly TimedSegment[],
  rules: ParagraphRules = READING_PARAGRAPHS,
  breaks: Iterable<number> = [],
): ReadingParagraph[] {
  const count = segments.length;
  if (count === 0) return [];
  const startMs = new Float64Array(count);
  const endMs = new Float64Array(count);
  const text: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const segment = segments[i];
    startMs[i] = Math.round(segment.start * 1000);
    // A segment that ends before it starts (or before the next starts) counts as ending where it starts.
    endMs[i] = Math.max(startMs[i], Math.round(segment.end * 1000));
    text[i] = segment.text;
  }
  const words = segments.map((segment) => segment.words);
  const speaker = segments.map((segment) => segment.speaker);
  const starts = new Set(paragraphStarts({ count, startMs, endMs, text, words, speaker }, rules));
  for (const index of breaks) if (Number.isInteger(index) && index > 0 && index < count) starts.add(index);
  const sorted = [...starts].sort((a, b) => a - b);
  return sorted.map((from, k) => {
    const paragraph: ReadingParagraph = {
      from,
      to: k + 1 < sorted.length ? sorted[k + 1] : count,
      start: segments[from].start,
    };
    const who = speaker[from];
    if (who !== undefined && (from === 0 || speaker[from - 1] !== who)) paragraph.speaker = who;
    return paragraph;
  });
}

/** The paragraph that holds segment `index` (binary search), or -1 when none does. */
export function paragraphOf(paragraphs: readonly ReadingParagraph[], index: number): number {
  let low = 0;
  let high = paragraphs.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (index < paragraphs[mid].from) high = mid - 1;
    else if (index >= paragraphs[mid].to) low = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * The word being spoken at `seconds` in a segment's words: the last one that has started (allowing `lead`
 * seconds for a player's lagging reports), or -1 before the first or when there are none.
 */
export function activeWordIndex(
  words: readonly { start: number }[] | undefined,
  seconds: number | null,
  lead = 0.25,
): number {
  if (!words || seconds === null || !Number.isFinite(seconds)) return -1;
  let low = 0;
  let high = words.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (words[mid].start <= seconds + lead) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
