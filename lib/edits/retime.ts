import type { Segment, Word } from "@/lib/formats/types";
import { diffBudget, diffTokens, tokenize, type DiffBudget } from "@/lib/edits/word-diff";

// Timings follow the words. A corrected segment keeps the times of every word it did not change (a word-level
// diff against the segment as it was), and the words it adds share the time between their kept neighbours
// (the time of the words they replace, or the segment's edge), evenly. A segment whose source gave no word
// times keeps no invented ones: its own start and end are its timing.
//
// The diffs of one save draw from one budget (SAVE_DIFF_STEPS): once it is spent, each remaining segment
// keeps the times of its common first and last words only, and its other words share the time between them
// evenly (the diff's coarse answer), which costs a pass over the words.

/** The diff steps one save may take over all its segments. */
export const SAVE_DIFF_STEPS = 5_000_000;

/** A segment as an edit sends it: its times, its text, and word times only when the caller has them. */
export interface EditedSegment {
  start: number;
  end: number;
  text: string;
  words?: Word[];
  /** Who speaks: left out, the matched current segment's speaker is kept; "" for none. */
  speaker?: string;
}

const ms = (s: number) => Math.round(s * 1000);
const round = (s: number) => ms(s) / 1000;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** `next` (new text, possibly new times) with word times carried over from `old` where the words are the same. */
export function retimeSegment(
  old: Segment,
  next: EditedSegment,
  budget: DiffBudget = diffBudget(SAVE_DIFF_STEPS),
): Segment {
  const base: Segment = { start: next.start, end: next.end, text: next.text };
  if (!old.words || old.words.length === 0) return base;
  const oldTokens = old.words.map((w) => w.text.trim());
  const newTokens = tokenize(next.text);
  if (newTokens.length === 0) return base;
  const kept = new Array<Word | null>(newTokens.length).fill(null);
  for (const run of diffTokens(oldTokens, newTokens, budget)) {
    if (run.op !== "equal") continue;
    for (let i = 0; i < run.tokens.length; i++) {
      const w = old.words[run.from + i]!;
      const start = clamp(w.start, next.start, next.end);
      kept[run.at + i] = { start, end: clamp(w.end, start, next.end), text: newTokens[run.at + i]! };
    }
  }
  const words: Word[] = [];
  let i = 0;
  while (i < newTokens.length) {
    const word = kept[i];
    if (word) {
      words.push(word);
      i++;
      continue;
    }
    // A run of new words: between the previous kept word's end (or the segment's start) and the next kept word's start.
    let j = i;
    while (j < newTokens.length && !kept[j]) j++;
    const to = j < newTokens.length ? kept[j]!.start : next.end;
    // Not past the next kept word's start (old word times may overlap): the words stay in order.
    const from = Math.min(words.length > 0 ? words[words.length - 1]!.end : next.start, to);
    const step = Math.max(0, to - from) / (j - i);
    for (let k = i; k < j; k++) {
      const start = round(from + step * (k - i));
      words.push({ start, end: Math.max(start, round(from + step * (k - i + 1))), text: newTokens[k]! });
    }
    i = j;
  }
  return { ...base, words };
}

/** `segment` with `speaker` as its speaker (none for undefined or ""). */
function spokenBy(segment: Segment, speaker: string | undefined): Segment {
  const name = speaker === "" ? undefined : speaker;
  if (segment.speaker === name) return segment;
  const { speaker: _old, ...rest } = segment;
  return name === undefined ? rest : { ...rest, speaker: name };
}

/**
 * The whole corrected list with timings carried over from `current` (what the author sees now): each edited
 * segment is matched to the current segment with the same start and end (to the millisecond, as subtitle
 * files write them), or, when the list kept its length, to the one at its index (a cue whose times were
 * adjusted); one without its own words takes its word times from that match (none when nothing matches),
 * and one without a `speaker` keeps the match's speaker.
 */
export function followTimings(
  current: readonly Segment[],
  edited: readonly EditedSegment[],
  budget: DiffBudget = diffBudget(SAVE_DIFF_STEPS),
): Segment[] {
  const byTimes = new Map<string, Segment>();
  for (const s of current) {
    const key = `${ms(s.start)}:${ms(s.end)}`;
    if (!byTimes.has(key)) byTimes.set(key, s);
  }
  const sameLength = current.length === edited.length;
  return edited.map((seg, index) => {
    const old = byTimes.get(`${ms(seg.start)}:${ms(seg.end)}`) ?? (sameLength ? current[index] : undefined);
    const speaker = seg.speaker !== undefined ? seg.speaker : old?.speaker;
    if (seg.words && seg.words.length > 0)
      return spokenBy({ start: seg.start, end: seg.end, text: seg.text, words: seg.words }, speaker);
    if (!old) return spokenBy({ start: seg.start, end: seg.end, text: seg.text }, speaker);
    if (old.text === seg.text && old.start === seg.start && old.end === seg.end) return spokenBy(old, speaker);
    return spokenBy(retimeSegment(old, seg, budget), speaker);
  });
}
