import type { Segment, Word } from "./types";

/** Minimum length given to a zero-length (or inverted) cue, in ms; capped by the next cue's start. */
export const MIN_CUE_MS = 500;

/** Upper clamp for times, in ms (~317 years): keeps every time an exact, safely printable integer. */
const MAX_MS = 1e13;

/** Runs of whitespace (JS `\s`: incl. newlines, U+2028/9, NBSP, BOM) and C0/DEL control characters. */
const WHITESPACE_RUN = /[\s\u0000-\u001f\u007f]+/g;

/**
 * True for the characters cleanText treats as whitespace: exactly `[\s\u0000-\u001f\u007f]`.
 * Renderers use it to collapse whitespace while they copy text (see writer.ts), so the text is
 * scanned once instead of once to clean and once to copy.
 */
export function isSpaceCode(c: number): boolean {
  return (
    c <= 0x20 ||
    c === 0x7f ||
    (c >= 0xa0 &&
      (c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f)) ||
        c === 0x3000 ||
        c === 0xfeff))
  );
}

/** True when the value is not a string or has nothing but whitespace/control characters. */
export function isBlank(text: unknown): boolean {
  if (typeof text !== "string") return true;
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/** Collapses whitespace/control-character runs to one space and trims. Non-strings become "". */
export function cleanText(text: unknown): string {
  if (typeof text !== "string") return "";
  return text.replace(WHITESPACE_RUN, " ").trim();
}

/**
 * Normalized cues in parallel arrays, times in integer milliseconds. Entries [0, count) are valid (the
 * arrays may be longer). Invariants: 0 <= startMs[i] < endMs[i] <= startMs[i + 1].
 * `text[i]` is NOT cleaned yet (renderers collapse whitespace as they copy, via cleanText rules)
 * but is guaranteed to contain a non-whitespace character.
 */
export interface NormalizedCues {
  count: number;
  startMs: Float64Array;
  endMs: Float64Array;
  text: string[];
  /** The words of cue i as the source gave them (not normalized yet: see normalizeWords), or undefined. */
  words: (readonly Word[] | undefined)[];
  /** Who speaks in cue i (cleaned, non-empty), where the source names them; undefined elsewhere. */
  speaker: (string | undefined)[];
}

/** Sum of the (raw) text lengths: sizes output buffers. */
export function totalTextLength(cues: NormalizedCues): number {
  let n = 0;
  for (let i = 0; i < cues.count; i++) n += cues.text[i].length;
  return n;
}

/** Seconds → integer milliseconds, the one rounding rule used everywhere (Math.round(sec * 1000)). */
export function toMs(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** Rounds and clamps to [0, MAX_MS] ms; -1 for anything that is not a finite number. */
function secondsToMs(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return -1;
  const ms = Math.round(value * 1000);
  // `ms > 0` is false for -0 and negatives: both become 0.
  return ms > 0 ? (ms < MAX_MS ? ms : MAX_MS) : 0;
}

/**
 * Parallel arrays reused from one call to the next, grown to the largest transcript seen: fresh
 * arrays of a long transcript's size each call were a third of a render (new, zeroed memory, page by
 * page). `input` holds pass 1's output and, for input already in start order (the usual case), pass 2's
 * too, merged in place; `sorted` takes pass 2's output when pass 1 had to sort.
 */
interface CueArrays {
  startMs: Float64Array;
  endMs: Float64Array;
  text: string[];
  words: (readonly Word[] | undefined)[];
  speaker: (string | undefined)[];
}
const scratch: { input: CueArrays; sorted: CueArrays } = { input: cueArrays(0), sorted: cueArrays(0) };

function cueArrays(n: number): CueArrays {
  return {
    startMs: new Float64Array(n),
    endMs: new Float64Array(n),
    text: new Array<string>(n),
    words: new Array<readonly Word[] | undefined>(n),
    speaker: new Array<string | undefined>(n),
  };
}

function scratchArrays(which: "input" | "sorted", n: number): CueArrays {
  if (scratch[which].startMs.length < n) scratch[which] = cueArrays(Math.max(n, 2 * scratch[which].startMs.length));
  return scratch[which];
}

/**
 * The timing half of normalizeSegments (same rules), into parallel arrays of integer
 * milliseconds: the form the renderers use, so nothing is rounded twice. Text is only checked for
 * blankness here; see NormalizedCues.
 *
 * The result lives in arrays shared by every call: it is valid until the next call, which the
 * renderers (synchronous, each done with its cues before it returns) never make while using one.
 *
 * (The two passes live in their own functions so that V8 optimizes each loop as a whole function
 * instead of on-stack-replacing it on every call and bailing out after it.)
 */
export function normalizeCues(segments: readonly Segment[]): NormalizedCues {
  const input = scratchArrays("input", segments.length);
  const collected = collect(segments, input);
  const m = collected < 0 ? -collected - 1 : collected;
  if (collected >= 0) {
    // In start order: merged in place (cue k is read before any cue <= k is written).
    const count = merge(input, m, null, input);
    return {
      count,
      startMs: input.startMs,
      endMs: input.endMs,
      text: input.text,
      words: input.words,
      speaker: input.speaker,
    };
  }
  const order = new Array<number>(m);
  for (let i = 0; i < m; i++) order[i] = i;
  const inStart = input.startMs;
  order.sort((a, b) => inStart[a] - inStart[b] || a - b); // stable by construction
  const out = scratchArrays("sorted", m);
  const count = merge(input, m, order, out);
  return { count, startMs: out.startMs, endMs: out.endMs, text: out.text, words: out.words, speaker: out.speaker };
}

/**
 * Pass 1: drops blank-text and time-less segments, rounds and clamps times into the `in*` arrays.
 * Returns how many were kept, as `m` when they are sorted by start and `-m - 1` when not.
 */
function collect(segments: readonly Segment[], into: CueArrays): number {
  const { startMs: inStart, endMs: inEnd, text: inText, words: inWords, speaker: inSpeaker } = into;
  let m = 0;
  let sorted = true;
  let prevStart = -1;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg == null) continue;
    const t = seg.text;
    if (isBlank(t)) continue;
    let s = secondsToMs(seg.start);
    const e = secondsToMs(seg.end);
    if (s < 0) {
      if (e < 0) continue;
      s = e;
    }
    if (s < prevStart) sorted = false;
    prevStart = s;
    inStart[m] = s;
    inEnd[m] = e; // -1 = unknown, treated as zero-length in merge()
    inText[m] = t;
    const words = seg.words;
    inWords[m] = Array.isArray(words) && words.length > 0 ? words : undefined;
    const speaker = seg.speaker;
    inSpeaker[m] = speaker === undefined || isBlank(speaker) ? undefined : cleanText(speaker);
    m++;
  }
  return sorted ? m : -m - 1;
}

/**
 * Pass 2, in start order (`order`, or index order when null): merges same-start cues, gives
 * zero-length/inverted cues MIN_CUE_MS, trims overlaps. Returns the number of cues written.
 */
function merge(input: CueArrays, m: number, order: number[] | null, out: CueArrays): number {
  const { startMs: inStart, endMs: inEnd, text: inText, words: inWords, speaker: inSpeaker } = input;
  const { startMs, endMs, text, words, speaker } = out;
  let count = 0;
  let carryText = "";
  let carryEnd = -1;
  let carryWords: readonly Word[] | undefined;
  let carrySpeaker: string | undefined;
  for (let k = 0; k < m; k++) {
    const i = order === null ? k : order[k];
    const s = inStart[i];
    const t = carryText === "" ? inText[i] : carryText + " " + inText[i];
    const w =
      carryWords === undefined ? inWords[i] : inWords[i] === undefined ? carryWords : carryWords.concat(inWords[i]!);
    // Cues folded together keep the first name given.
    const who = carrySpeaker ?? inSpeaker[i];
    let e = inEnd[i] > carryEnd ? inEnd[i] : carryEnd;
    const nextStart = k + 1 < m ? inStart[order === null ? k + 1 : order[k + 1]] : -1;
    if (nextStart === s) {
      // Same start as the next cue: fold this one into it.
      carryText = t;
      carryEnd = e;
      carryWords = w;
      carrySpeaker = who;
      continue;
    }
    carryText = "";
    carryEnd = -1;
    carryWords = undefined;
    carrySpeaker = undefined;
    if (e <= s) e = s + MIN_CUE_MS;
    if (nextStart >= 0 && e > nextStart) e = nextStart; // nextStart > s here, so e > s still
    startMs[count] = s;
    endMs[count] = e;
    text[count] = t;
    words[count] = w;
    speaker[count] = who;
    count++;
  }
  return count;
}

/**
 * Normalizes raw segments into a list every renderer can print without further checks:
 *
 * - segments whose text is empty/whitespace-only (or not a string) are dropped; internal
 *   whitespace (incl. newlines) and control characters are collapsed to single spaces;
 * - times are rounded to whole milliseconds (Math.round(sec * 1000)) and negative times clamped to 0;
 *   a non-finite start falls back to the end (and the segment is dropped if neither is finite), a
 *   non-finite end is treated as a zero-length cue — NaN never comes out;
 * - the result is sorted by start (stable; the sort is skipped when the input is already sorted);
 * - segments that start on the same millisecond are merged into one cue (text joined with a space),
 *   since neither SRT nor WebVTT can show two cues there without one being zero-length;
 * - a zero-length or inverted cue gets MIN_CUE_MS of length;
 * - overlaps are trimmed: end = min(end, nextStart);
 * - a `speaker` that is blank (or not a string) is dropped, others are cleaned like text; merged cues keep
 *   the first one's.
 *
 * Guarantees on the output (in exact ms, i.e. after `Math.round(x * 1000)`):
 * start < end <= next.start, start >= 0, text non-empty without newlines or double spaces.
 * Pure (input untouched) and O(n) for sorted input (O(n log n) when a sort is needed).
 * The renderers share these rules through normalizeCues.
 */
export function normalizeSegments(segments: readonly Segment[]): Segment[] {
  const cues = normalizeCues(segments);
  const out = new Array<Segment>(cues.count);
  for (let i = 0; i < cues.count; i++) {
    const seg: Segment = { start: cues.startMs[i] / 1000, end: cues.endMs[i] / 1000, text: cleanText(cues.text[i]) };
    const speaker = cues.speaker[i];
    if (speaker !== undefined) seg.speaker = speaker;
    const raw = cues.words[i];
    if (raw !== undefined) {
      const words = normalizeWords(raw, cues.startMs[i], cues.endMs[i]);
      if (words.count > 0) {
        seg.words = new Array<Word>(words.count);
        for (let k = 0; k < words.count; k++) {
          seg.words[k] = { start: words.startMs[k] / 1000, end: words.endMs[k] / 1000, text: words.text[k] };
        }
      }
    }
    out[i] = seg;
  }
  return out;
}

/** A cue's words, normalized: times in integer ms, texts cleaned. Entries [0, count) are valid. */
export interface NormalizedWords {
  count: number;
  startMs: number[];
  endMs: number[];
  text: string[];
}

/**
 * The words of one normalized cue: words whose text is blank (or not a string) or whose
 * start is not a finite number are dropped, texts are cleaned like cue texts, times are rounded to
 * whole milliseconds and kept inside the cue (segStartMs <= start <= end <= segEndMs), starts never
 * go backwards, and a word ends no later than the next one starts (a missing or inverted end
 * becomes the next word's start, or the cue's end for the last word).
 */
export function normalizeWords(words: readonly Word[], segStartMs: number, segEndMs: number): NormalizedWords {
  const startMs: number[] = [];
  const endMs: number[] = [];
  const text: string[] = [];
  let prevStart = segStartMs;
  for (const w of words) {
    if (w == null || isBlank(w.text)) continue;
    let s = secondsToMs(w.start);
    if (s < 0) continue;
    if (s < prevStart) s = prevStart;
    if (s > segEndMs) s = segEndMs;
    prevStart = s;
    const e = secondsToMs(w.end);
    startMs.push(s);
    endMs.push(e);
    text.push(cleanText(w.text));
  }
  const count = startMs.length;
  for (let k = 0; k < count; k++) {
    const s = startMs[k];
    const limit = k + 1 < count ? startMs[k + 1] : segEndMs;
    const e = endMs[k];
    endMs[k] = e < s || e > limit ? limit : e;
  }
  return { count, startMs, endMs, text };
}
