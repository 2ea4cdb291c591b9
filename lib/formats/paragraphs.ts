import { isSpaceCode, type NormalizedCues } from "./normalize";

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
 */
export function paragraphStarts(cues: NormalizedCues, rules: ParagraphRules): number[] {
  const starts: number[] = [];
  const n = cues.count;
  if (n === 0) return starts;
  const { startMs, endMs, text } = cues;
  const minMs = rules.minSeconds * 1000;
  const maxMs = rules.maxSeconds * 1000;
  const pauseMs = rules.pauseSeconds * 1000;
  starts.push(0);
  let paraStart = startMs[0];
  for (let i = 0; i + 1 < n; i++) {
    const end = endMs[i];
    const elapsed = end - paraStart;
    if (startMs[i + 1] - end > pauseMs || elapsed >= maxMs || (elapsed >= minMs && endsSentence(text[i]))) {
      starts.push(i + 1);
      paraStart = startMs[i + 1];
    }
  }
  return starts;
}
