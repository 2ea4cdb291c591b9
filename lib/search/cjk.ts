// Chinese, Japanese and Korean text has no spaces between words, so PostgreSQL's parser sees a whole run
// of characters as one word. The index also stores every pair of adjacent CJK characters as a token
// (verbatim_cjk_bigrams in the migration); a query's CJK run becomes the phrase of its pairs, which
// matches that run anywhere inside a longer one. A one-character query matches only a one-character run.

/** The characters treated as CJK: kana, CJK Extension A, CJK Unified Ideographs, compatibility ideographs, Hangul syllables. */
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;

export function hasCjk(text: string): boolean {
  return new RegExp(CJK_RUN.source).test(text);
}

/** The bigrams of one run, as the index makes them: "比特币" → ["比特", "特币"]; one character stays itself. */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
}

/**
 * The query as websearch_to_tsquery should read it: each CJK run replaced by its bigrams, quoted (a
 * phrase: in order, adjacent) unless it already stands inside the user's quotes, where the user's phrase
 * holds them. Everything else is left as typed.
 */
export function rewriteCjkQuery(query: string): string {
  let out = "";
  let inQuote = false;
  let last = 0;
  for (const match of query.matchAll(CJK_RUN)) {
    const before = query.slice(last, match.index);
    for (const c of before) if (c === '"') inQuote = !inQuote;
    out += before;
    const pairs = cjkBigrams(match[0]).join(" ");
    // A "-" or an opening quote right before the run stays attached to it.
    const lead = /[-"]$/.test(out) || out === "" || /\s$/.test(out) ? "" : " ";
    out += lead + (inQuote || !pairs.includes(" ") ? pairs : `"${pairs}"`) + " ";
    last = match.index + match[0].length;
  }
  return out + query.slice(last);
}

/** The CJK runs of a query that must be marked in a snippet (excluded ones are not), longest first. */
export function cjkNeedles(query: string): string[] {
  const needles: string[] = [];
  for (const match of query.matchAll(CJK_RUN)) {
    const before = query.slice(0, match.index);
    if (/-"?$/.test(before.trimEnd()) || /(^|\s)-\S*$/.test(before)) continue;
    needles.push(match[0]);
  }
  return [...new Set(needles)].sort((a, b) => b.length - a.length);
}
