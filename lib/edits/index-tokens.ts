// What the search index makes of a correction's text (verbatim_index_revision_step: PostgreSQL's parser, then
// verbatim_cjk_bigrams), counted without a database: the cost of indexing a save is proportional to it, not to
// its space-separated words. Each run of letters, digits and combining marks is a token (a comma, a hyphen or
// any other punctuation between two runs makes two); a hyphen-joined compound is one more besides its parts; a
// run of Chinese, Japanese or Korean characters, which the parser reads as one word, adds each pair of adjacent
// characters (one character alone: itself). An upper bound of what the index holds (stop words count too).

const PART = /[\p{L}\p{N}\p{M}]+/gu;
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:-[\p{L}\p{N}\p{M}]+)+/gu;
/** The characters verbatim_cjk_bigrams pairs: kana, CJK Extension A, unified and compatibility ideographs, Hangul. */
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;

function matches(pattern: RegExp, text: string, each: (length: number) => number = () => 1): number {
  let count = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) count += each(m[0].length);
  return count;
}

/** The tokens the search index makes of `text` (0 for what is not a string: validation reports it). */
export function indexTokens(text: unknown): number {
  if (typeof text !== "string") return 0;
  return (
    matches(PART, text) +
    (text.includes("-") ? matches(COMPOUND, text) : 0) +
    matches(CJK_RUN, text, (n) => Math.max(1, n - 1))
  );
}

const isAsciiAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isCjk = (c: number) =>
  (c >= 0x3040 && c <= 0x30ff) ||
  (c >= 0x3400 && c <= 0x4dbf) ||
  (c >= 0x4e00 && c <= 0x9fff) ||
  (c >= 0xf900 && c <= 0xfaff) ||
  (c >= 0xac00 && c <= 0xd7af);
/** A character that may be part of a run of letters, digits and marks (every one past ASCII may). */
const mayBePart = (c: number) => isAsciiAlnum(c) || (c >= 0x80 && !isSpace(c));
const isSpace = (c: number) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);

/**
 * At least indexTokens(text), counted without a regex or an allocation, so that it can run on the event loop
 * before a save's work (its rate limit counts it): the same for ASCII text and for CJK runs (one more a run),
 * each other character past ASCII counted as a token of its own (an accent, a mark, a dash may or may not start
 * one).
 */
export function mostIndexTokens(text: string): number {
  let tokens = 0;
  let previous = 0x20;
  // Inside a hyphen-joined compound already counted.
  let compound = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isAsciiAlnum(c)) {
      if (!mayBePart(previous)) tokens++;
    } else if (isCjk(c)) {
      tokens += isCjk(previous) ? 1 : 2;
    } else if (c >= 0x80 && !isSpace(c)) {
      tokens++;
    } else if (c === 0x2d && mayBePart(previous) && i + 1 < text.length && mayBePart(text.charCodeAt(i + 1))) {
      if (!compound) tokens++;
      compound = true;
    } else compound = false;
    previous = c;
  }
  return tokens;
}
