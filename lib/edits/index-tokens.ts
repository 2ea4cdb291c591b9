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
