/**
 * Turns parsed caption cues into clean, non-overlapping segments.
 *
 * YouTube's auto captions are drawn in a two-row rolling window. How that shows up depends on the
 * format:
 * - json3/srv3: each word event carries only its new words, but stays on screen (as the upper row)
 *   until the event after next starts, so events overlap in time; newline-only `aAppend` events mark
 *   the row breaks.
 * - WebVTT (and anything converted from it, e.g. by yt-dlp to SRT): every cue re-shows the previous
 *   line above the new one, with 10 ms "hold" cues in between, so each phrase appears two or three
 *   times.
 *
 * `dedupe` handles both: it drops newline-only events, folds appended text into the event it
 * continues, removes from each cue the prefix that repeats the tail of the previous cue (longest
 * token-level overlap) when the track rolls, drops cues that only repeat, keeps each phrase's timing
 * from its first appearance, and clips every segment's end to the next segment's start. A cue that
 * starts after a gap is never folded into the one before it, whatever its words.
 *
 * Whether a track "rolls" is decided from the track itself (a good share of adjacent cues overlap by
 * whole phrases), so a json3 track, whose overlaps are only ever a speaker repeating themselves
 * ("the more you knead it, the more / the more elastic..."), keeps those words.
 *
 * Word times: a cue's timed words (text.ts Cue) go with the tokens they belong to. A token
 * dropped as a re-shown repeat drops its words (they were kept, with their own time, where the row was
 * new), a kept token keeps its words, so each timed word comes out once with the time the file gave
 * it. Appended text brings its words along; every word ends by the next word's start and inside its
 * segment.
 *
 * Pure: no I/O.
 */
import type { Segment, Word } from "@/lib/formats/types";

import { joinCaptionText } from "./text";

type InputCue = Segment & { append?: boolean };

/** Share of adjacent cue pairs that must overlap for a track to count as rolling. */
const ROLLING_SHARE = 0.3;
/** Cues closer than this (seconds) count as touching. */
const TOUCH = 0.05;

interface Token {
  raw: string;
  norm: string;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of text.split(" ")) {
    if (raw === "") continue;
    // Compare words, not their punctuation or case: "network," and "Network" are one token.
    const norm = raw.toLowerCase().replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, "") || raw.toLowerCase();
    out.push({ raw, norm });
  }
  return out;
}

/** Largest k such that the last k tokens of `prev` equal the first k tokens of `cur`. */
export function longestOverlap(prev: readonly string[], cur: readonly string[]): number {
  const max = Math.min(prev.length, cur.length);
  for (let k = max; k > 0; k--) {
    let same = true;
    for (let i = 0; i < k; i++) {
      if (prev[prev.length - k + i] !== cur[i]) {
        same = false;
        break;
      }
    }
    if (same) return k;
  }
  return 0;
}

/**
 * An overlap that looks like a re-shown line rather than chance: at least two words, or the whole of
 * one of the two cues (a one-word line carried over, or a hold cue that only repeats).
 */
function isCarryOver(k: number, prevLength: number, curLength: number): boolean {
  return k >= 2 || (k >= 1 && (k === prevLength || k === curLength));
}

function round(s: number): number {
  return Math.round(s * 1000) / 1000;
}

/**
 * For each word of a segment, the index of the token (space-separated piece of `text`) it belongs to.
 * Words are the text's last tokens, in order (text.ts Cue), so they are found from the end backwards;
 * several words can share a token (Chinese or Japanese words joined without a space). A word not found
 * (never the case for the parsers here) goes with the token where the search stands.
 */
export function wordTokens(text: string, words: readonly Word[]): number[] {
  const tokenAt = (pos: number): number => {
    let n = 0;
    for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 32) n++;
    return n;
  };
  const out = new Array<number>(words.length);
  let cursor = text.length;
  for (let i = words.length - 1; i >= 0; i--) {
    const w = (words[i] as Word).text;
    const at = w === "" ? -1 : text.lastIndexOf(w, cursor - w.length);
    if (at >= 0 && at + w.length <= cursor) {
      out[i] = tokenAt(at);
      cursor = at;
    } else out[i] = tokenAt(Math.max(0, cursor - 1));
  }
  return out;
}

/** Drops empty (newline-only) cues, folds appended text into the cue it continues, sorts by start. */
function base(cues: readonly InputCue[]): Segment[] {
  const out: Segment[] = [];
  for (const c of cues) {
    const text = c.text.replace(/\s+/g, " ").trim();
    if (text === "") continue;
    const prev = out[out.length - 1];
    if (c.append && prev) {
      prev.text = joinCaptionText(prev.text, text);
      prev.end = Math.max(prev.end, c.end);
      if (c.words?.length) prev.words = (prev.words ?? []).concat(c.words);
      continue;
    }
    const seg: Segment = { start: c.start, end: Math.max(c.start, c.end), text };
    if (c.words?.length) seg.words = [...c.words];
    if (c.speaker !== undefined) seg.speaker = c.speaker;
    out.push(seg);
  }
  // Stable: cues that start together keep their order.
  return out
    .map((s, i) => [s, i] as const)
    .sort((a, b) => a[0].start - b[0].start || a[1] - b[1])
    .map(([s]) => s);
}

/** True when enough adjacent cues re-show the previous cue's tail for this to be a rolling track. */
export function isRollingTrack(segments: readonly Segment[]): boolean {
  if (segments.length < 3) return false;
  let carried = 0;
  for (let i = 1; i < segments.length; i++) {
    const prev = tokens((segments[i - 1] as Segment).text).map((t) => t.norm);
    const cur = tokens((segments[i] as Segment).text).map((t) => t.norm);
    if (isCarryOver(longestOverlap(prev, cur), prev.length, cur.length)) carried++;
  }
  return carried >= 2 && carried / (segments.length - 1) >= ROLLING_SHARE;
}

/**
 * Each segment ends no later than the next one starts; never before it starts. Its words stay inside
 * it, and each ends no later than the next word starts.
 */
function clip(segments: Segment[]): Segment[] {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as Segment;
    const next = segments[i + 1];
    if (next && next.start < s.end) s.end = Math.max(s.start, next.start);
    s.start = round(s.start);
    s.end = round(Math.max(s.start, s.end));
    if (s.words) {
      const words = s.words;
      let prevStart = s.start;
      for (let k = 0; k < words.length; k++) {
        const w = words[k] as Word;
        const start = round(Math.min(s.end, Math.max(prevStart, w.start)));
        prevStart = start;
        words[k] = { start, end: w.end, text: w.text };
      }
      for (let k = 0; k < words.length; k++) {
        const w = words[k] as Word;
        const limit = k + 1 < words.length ? (words[k + 1] as Word).start : s.end;
        w.end = round(Math.max(w.start, Math.min(w.end, limit)));
      }
    }
  }
  return segments;
}

/**
 * Auto captions → clean segments with no repeated runs (see the file comment). Accepts the cues of
 * any parser in this module, whatever the provider.
 */
export function dedupe(cues: readonly InputCue[]): Segment[] {
  const segments = base(cues);
  const rolling = isRollingTrack(segments);
  const out: Segment[] = [];
  let prevTokens: string[] | null = null;
  let prevEnd = -Infinity;

  for (const seg of segments) {
    const toks = tokens(seg.text);
    const norms = toks.map((t) => t.norm);
    const last = out[out.length - 1];
    let keepFrom = 0;

    // Only a cue that follows on from the previous one can re-show it: after a gap, the same words
    // ("[Music]" three times, 100 s apart) are said again and stay separate segments.
    const follows = seg.start <= prevEnd + TOUCH;
    if (prevTokens !== null && follows) {
      if (rolling) {
        const k = longestOverlap(prevTokens, norms);
        if (isCarryOver(k, prevTokens.length, norms.length)) keepFrom = k;
      } else if (norms.join(" ") === prevTokens.join(" ")) {
        // The same cue twice in a row (e.g. "[Music]" split in two): one segment.
        keepFrom = norms.length;
      }
    }
    // The next cue is compared with what this one showed, not with what was kept of it.
    prevTokens = norms;
    prevEnd = seg.end;

    if (keepFrom >= toks.length) {
      // Nothing new: the words were already shown, so their segment simply stays up longer.
      if (last) last.end = Math.max(last.end, seg.end);
      continue;
    }
    const kept: Segment = {
      start: seg.start,
      end: seg.end,
      text: toks
        .slice(keepFrom)
        .map((t) => t.raw)
        .join(" "),
    };
    if (seg.words) {
      const at = wordTokens(seg.text, seg.words);
      const words = seg.words.filter((_, k) => (at[k] as number) >= keepFrom);
      if (words.length > 0) kept.words = words;
    }
    out.push(kept);
  }
  return clip(out);
}

/**
 * Manual captions: same cleanup without touching the text (a song's repeated chorus is content).
 * Drops empty cues, folds appends, sorts; overlapping manual captions (two speakers) keep their times.
 * People time their captions by the line, not by the word: no `words`. A speaker the file names is kept.
 */
export function tidy(cues: readonly InputCue[]): Segment[] {
  return base(cues).map((s) => {
    const seg: Segment = { start: round(s.start), end: round(Math.max(s.start, s.end)), text: s.text };
    if (s.speaker !== undefined) seg.speaker = s.speaker;
    return seg;
  });
}

/**
 * How many n-grams of each segment also occur in the segment before it, summed over the track: the
 * measure of rolling repetition (0 for a clean transcript, unless the speaker repeats themselves).
 */
export function repeatedNgramCount(segments: readonly Segment[], n = 4): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError("n must be a positive integer");
  const grams = (text: string): string[] => {
    const t = tokens(text).map((x) => x.norm);
    const out: string[] = [];
    for (let i = 0; i + n <= t.length; i++) out.push(t.slice(i, i + n).join(" "));
    return out;
  };
  let count = 0;
  let prev = new Set<string>();
  for (const seg of segments) {
    const cur = grams(seg.text);
    for (const g of cur) if (prev.has(g)) count++;
    prev = new Set(cur);
  }
  return count;
}
