import type { Segment } from "@/lib/formats/types";

import type { Word } from "./types";

/** A segment cut from recognised words: its words with their times, unless any was only estimated. */
export type TimedText = Segment;

export interface SegmentWordsOptions {
  /** Longest a segment may last (first word's start to last word's end), unless one word alone is longer. */
  maxSeconds?: number;
  /** Longest a segment's text may be, unless one word alone is longer. */
  maxChars?: number;
}

/** A gap before the next word longer than this is a natural place to break (like a comma). */
const PAUSE_SECONDS = 0.6;
/** A gap this long is as good a break as a sentence end. */
const LONG_PAUSE_SECONDS = 2;

// Costs of ending a segment after a word, by what follows it. Every segment also costs SEGMENT_COST,
// so the fewest segments win among equally good breaks, plus up to SLACK_COST for an underfilled one,
// which evens out the lengths of a run that has to be cut at plain word boundaries.
const SEGMENT_COST = 1;
const SLACK_COST = 2;
const BREAK_COST = { end: 0, sentence: 0, clause: 4, word: 12 } as const;
/** Keeping a long silence inside a segment costs more than an extra segment. */
const INNER_SILENCE_COST = 5;

const SENTENCE_END = /[.?!…。？！]["'”’»)\]]*$/u;
const CLAUSE_END = /[,;:，、；：—–]["'”’»)\]]*$/u;
// Scripts written without spaces between words: their words are joined directly.
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const LEADING_CLOSER = /^[,.;:!?%)\]}。，、；：！？）」』]/u;

/** Joins word texts with spaces, except between words of scripts written without them and before closing punctuation. */
export function joinWords(texts: readonly string[]): string {
  let out = "";
  for (const raw of texts) {
    const text = raw.trim();
    if (!text) continue;
    if (out && !(NO_SPACE_SCRIPT.test(out.at(-1)!) && NO_SPACE_SCRIPT.test(text[0])) && !LEADING_CLOSER.test(text)) {
      out += " ";
    }
    out += text;
  }
  return out;
}

function breakCost(word: Word, next: Word | undefined): number {
  if (!next) return BREAK_COST.end;
  const gap = next.start - word.end;
  if (SENTENCE_END.test(word.text) || gap >= LONG_PAUSE_SECONDS) return BREAK_COST.sentence;
  if (CLAUSE_END.test(word.text) || gap > PAUSE_SECONDS) return BREAK_COST.clause;
  return BREAK_COST.word;
}

/**
 * Cuts timed words into subtitle-size segments: at most `maxSeconds` long and `maxChars` characters
 * (a single longer word gets a segment of its own; a word is never split). Among the cuts that respect
 * the limits it picks the cheapest overall: sentence ends (. ? !) and long silences first, then commas and
 * pauses over 0.6 s, then plain word boundaries, with as few and as evenly filled segments as possible.
 * Each segment keeps its words (`words`) when the backend timed every one of them; a segment
 * with an `estimated` word (a share of a segment's time, not a word's own) has none.
 */
export function segmentWords(
  words: readonly Word[],
  { maxSeconds = 7, maxChars = 84 }: SegmentWordsOptions = {},
): TimedText[] {
  const items = words
    .map((w): Word => ({ text: w.text.trim(), start: w.start, end: Math.max(w.end, w.start), estimated: w.estimated }))
    .filter((w) => w.text.length > 0);
  const n = items.length;
  if (n === 0) return [];

  // best[j]: cheapest segmentation of items[0..j); from[j]: where its last segment starts.
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(0);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const last = items[j - 1];
    const cutCost = breakCost(last, items[j]);
    let chars = 0;
    let silences = 0;
    for (let i = j - 1; i >= 0; i--) {
      const single = i === j - 1;
      // Characters of items[i..j) joined with single spaces (joinWords may use fewer: never more).
      chars += items[i].text.length + (single ? 0 : 1);
      if (!single && items[i + 1].start - items[i].end >= LONG_PAUSE_SECONDS) silences++;
      const seconds = last.end - items[i].start;
      if (!single && (chars > maxChars || seconds > maxSeconds)) break;
      const slack = Math.max(0, (maxChars - chars) / maxChars);
      const cost = best[i] + SEGMENT_COST + SLACK_COST * slack * slack + INNER_SILENCE_COST * silences + cutCost;
      if (cost < best[j]) {
        best[j] = cost;
        from[j] = i;
      }
    }
  }

  const segments: TimedText[] = [];
  for (let j = n; j > 0; j = from[j]) {
    const group = items.slice(from[j], j);
    const segment: TimedText = {
      start: group[0].start,
      end: Math.max(...group.map((w) => w.end)),
      text: joinWords(group.map((w) => w.text)),
    };
    if (!group.some((w) => w.estimated))
      segment.words = group.map((w) => ({ start: w.start, end: w.end, text: w.text }));
    segments.push(segment);
  }
  return segments.reverse();
}
