import type { Segment, Word } from "@/lib/formats/types";
import { retimeSegment } from "@/lib/edits/retime";
import { tokenize } from "@/lib/edits/word-diff";

// One segment changed by the cue editor (lib/browser/transcript-edits.ts), find and replace (find-replace.ts) and
// whatever else edits a segment in place: each change starts from the whole segment, so what it does not change
// (its speaker, and anything a segment carries later) stays. Word times follow retime.ts's rule: a word whose text
// is unchanged keeps its time (clamped into the segment's new bounds), new words share the time between their kept
// neighbours, and a segment the source gave no word times gets none invented.

const ms = (s: number) => Math.round(s * 1000) / 1000;

/** `segment` with `text` as its text; its word times re-fitted to the new words. */
export function withText<S extends Segment>(segment: S, text: string): S {
  if (segment.text === text) return segment;
  return withFitted(segment, { start: segment.start, end: segment.end, text });
}

/** `segment` between `start` and `end`; its words keep their times, clamped into the new bounds. */
export function withTimes<S extends Segment>(segment: S, start: number, end: number): S {
  if (segment.start === start && segment.end === end) return segment;
  return withFitted(segment, { start, end, text: segment.text });
}

function withFitted<S extends Segment>(segment: S, next: { start: number; end: number; text: string }): S {
  const { words: _words, ...rest } = segment;
  const fitted = retimeSegment(segment, next);
  return (fitted.words ? { ...rest, ...next, words: fitted.words } : { ...rest, ...next }) as S;
}

/**
 * `segment` cut in two at character `at` of its text, or null when either side would be empty. Both halves keep
 * everything else the segment carries (its speaker). With word times, the cut falls where the second half's first
 * word starts, and each half keeps its own words (a word cut in two shares its time by its letters); without them,
 * the time is shared by letters.
 */
export function splitSegment<S extends Segment>(segment: S, at: number): [S, S] | null {
  const before = segment.text.slice(0, at).trimEnd();
  const after = segment.text.slice(at).trimStart();
  if (before === "" || after === "") return null;
  const { words, ...rest } = segment;
  const aligned = words && words.length > 0 && words.length === tokenize(segment.text).length ? words : null;
  const byLetters = (from: number, to: number, share: number) => ms(from + (to - from) * share);
  if (!aligned) {
    const cut = byLetters(segment.start, segment.end, before.length / (before.length + after.length));
    return [
      { ...rest, start: segment.start, end: cut, text: before } as S,
      { ...rest, start: cut, end: segment.end, text: after } as S,
    ];
  }
  const first: Word[] = aligned.slice(0, tokenize(before).length);
  const second: Word[] = aligned.slice(aligned.length - tokenize(after).length);
  if (first.length + second.length > aligned.length) {
    // The cut falls inside a word: its two parts share its time by their letters.
    const word = aligned[first.length - 1]!;
    const head = tokenize(before).at(-1)!;
    const tail = tokenize(after)[0]!;
    const mid = byLetters(word.start, word.end, head.length / (head.length + tail.length));
    first[first.length - 1] = { start: word.start, end: mid, text: head };
    second[0] = { start: mid, end: word.end, text: tail };
  }
  const cut = Math.min(segment.end, Math.max(segment.start, second[0]!.start));
  const inside = (list: Word[], lo: number, hi: number) =>
    list.map((w) => {
      const start = Math.min(hi, Math.max(lo, w.start));
      return { ...w, start, end: Math.min(hi, Math.max(start, w.end)) };
    });
  return [
    { ...rest, start: segment.start, end: cut, text: before, words: inside(first, segment.start, cut) } as S,
    { ...rest, start: cut, end: segment.end, text: after, words: inside(second, cut, segment.end) } as S,
  ];
}

/**
 * Two neighbouring segments as one: the first's start, the later end, the texts joined by a space. Each carries
 * one speaker, so the first's is kept where it names one (else the second's): the second's words are then
 * attributed to the first's speaker, as the author asked by joining them. Word times are kept when both have them;
 * when only one does, the joined line has none (its own times are its timing, none invented).
 */
export function mergeSegments<S extends Segment>(first: S, second: S): S {
  const { words: firstWords, speaker: firstSpeaker, ...rest } = first;
  const speaker = firstSpeaker ?? second.speaker;
  const joined = {
    ...rest,
    start: Math.min(first.start, second.start),
    end: Math.max(first.end, second.end),
    text: `${first.text.trimEnd()} ${second.text.trimStart()}`,
  } as S;
  if (speaker !== undefined) joined.speaker = speaker;
  if (firstWords && firstWords.length > 0 && second.words && second.words.length > 0)
    joined.words = [...firstWords, ...second.words];
  return joined;
}
