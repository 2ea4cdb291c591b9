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
 * At most this many bigrams stand for the CJK runs of one query, shared among its runs (at least 2 each). A
 * run of n characters is n - 1 bigrams, each a posting list the index intersects and a step of the phrase
 * check; a 500-character run made one query cost several times an ordinary word.
 */
export const CJK_MAX_BIGRAMS = 32;

/**
 * The bigrams that stand for one run and their offsets in it, at most `cap`: every bigram while they fit;
 * else every second one (each character in exactly one, the last bigram added for an odd run), which still
 * pins every character; else `cap` spread evenly from the first to the last. Either way a passage holding the
 * run holds them at these distances (a phrase with `<N>`), so the query finds every passage it found before.
 */
export function runBigrams(run: string, cap: number): { bigram: string; at: number }[] {
  const all = cjkBigrams(run);
  const pick = (offsets: number[]) => [...new Set(offsets)].map((at) => ({ bigram: all[at]!, at }));
  if (all.length <= cap) return all.map((bigram, at) => ({ bigram, at }));
  const last = all.length - 1;
  const everySecond = Array.from({ length: Math.ceil(all.length / 2) }, (_, i) => 2 * i).concat(last);
  if (new Set(everySecond).size <= cap) return pick(everySecond);
  const k = Math.max(2, cap);
  return pick(Array.from({ length: k }, (_, j) => Math.round((j * last) / (k - 1))));
}

/** Each run of the query with the bigrams that stand for it (CJK_MAX_BIGRAMS shared among the runs). */
function queryRuns(query: string) {
  const runs = [...query.matchAll(CJK_RUN)];
  const cap = Math.max(2, Math.floor(CJK_MAX_BIGRAMS / Math.max(1, runs.length)));
  return runs.map((match) => ({ match, picked: runBigrams(match[0], cap) }));
}

/**
 * The query as websearch_to_tsquery should read it: each CJK run replaced by the bigrams that stand for it
 * (runBigrams), quoted (a phrase: in order) unless it already stands inside the user's quotes, where the
 * user's phrase holds them. Everything else is left as typed. The parser makes every step of such a phrase
 * `<->`; spaceCjkPhrases puts back the distances of a run whose bigrams are not all adjacent.
 */
export function rewriteCjkQuery(query: string): string {
  let out = "";
  let inQuote = false;
  let last = 0;
  for (const { match, picked } of queryRuns(query)) {
    const before = query.slice(last, match.index);
    for (const c of before) if (c === '"') inQuote = !inQuote;
    out += before;
    const pairs = picked.map((p) => p.bigram).join(" ");
    // A "-" or an opening quote right before the run stays attached to it.
    const lead = /[-"]$/.test(out) || out === "" || /\s$/.test(out) ? "" : " ";
    out += lead + (inQuote || !pairs.includes(" ") ? pairs : `"${pairs}"`) + " ";
    last = match.index + match[0].length;
  }
  return out + query.slice(last);
}

/**
 * A tsquery (websearch_to_tsquery's text of rewriteCjkQuery(query)) with each thinned run's phrase given its
 * distances: `'比特' <-> '币闪'` becomes `'比特' <2> '币闪'` where the two bigrams are two characters apart.
 */
export function spaceCjkPhrases(tsquery: string, query: string): string {
  let spaced = tsquery;
  for (const { picked } of queryRuns(query)) {
    if (picked.every((p, i) => i === 0 || p.at === picked[i - 1]!.at + 1)) continue;
    const quoted = picked.map((p) => `'${p.bigram}'`);
    const adjacent = quoted.join(" <-> ");
    const apart = quoted.map((q, i) => (i === 0 ? q : `<${picked[i]!.at - picked[i - 1]!.at}> ${q}`)).join(" ");
    spaced = spaced.replaceAll(adjacent, apart);
  }
  return spaced;
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
