import { rewriteCjkQuery } from "@/lib/search/cjk";

// A search query as websearch_to_tsquery will read it, looked at before PostgreSQL sees it: how many terms it
// has and whether any of them is something to find. A query of only -excluded terms matches every passage, so
// no index can help it; it is refused, like one with more terms than SEARCH_MAX_TERMS. PostgreSQL has the last
// word (find-moments.ts drops readings with nothing to find), this only answers the common shapes early.

/** Most terms (words and "phrases", excluded ones too) in one query. */
export const SEARCH_MAX_TERMS = 32;

/**
 * Most words the parser may read in one query, counting each part of a word it splits ("a-b-c" is four:
 * the whole and its parts) and each CJK bigram that stands for a run (rewriteCjkQuery): one term can hold
 * hundreds ("中a中a…", "a-a-a-…"), each an operand of the statement. A quoted sentence of ordinary words
 * stays well under it.
 */
export const SEARCH_MAX_WORDS = 100;

const WORD = /[\p{L}\p{N}]/u;

export interface QueryTerms {
  /** Words and phrases to find. */
  positive: number;
  /** -excluded words and phrases. */
  negative: number;
}

/** The terms of `q`: whitespace-separated words and "quoted phrases", negated by a "-" before them; OR is an operator. */
export function queryTerms(q: string): QueryTerms {
  const terms: QueryTerms = { positive: 0, negative: 0 };
  // A "-" standing alone ("- word") negates the next term, as it does for the parser.
  let pending = false;
  const count = (text: string, negated: boolean) => {
    if (!WORD.test(text)) {
      pending ||= negated;
      return;
    }
    if (negated || pending) terms.negative++;
    else terms.positive++;
    pending = false;
  };
  let at = 0;
  while (at < q.length) {
    if (/\s/.test(q[at]!)) {
      at++;
      continue;
    }
    // A token: up to whitespace, or up to a quote that opens a phrase.
    let end = at;
    while (end < q.length && !/\s/.test(q[end]!) && q[end] !== '"') end++;
    const token = q.slice(at, end);
    // Punctuation before the first letter is skipped by the parser; a "-" in it negates what follows.
    const lead = /^[^\p{L}\p{N}]*/u.exec(token)![0];
    if (q[end] === '"') {
      const close = q.indexOf('"', end + 1);
      const phraseEnd = close === -1 ? q.length : close;
      if (WORD.test(token)) count(token, lead.includes("-"));
      count(q.slice(end + 1, phraseEnd), !WORD.test(token) && lead.includes("-"));
      at = phraseEnd + 1;
      continue;
    }
    if (token.toLowerCase() !== "or") count(token, lead.includes("-"));
    at = end;
  }
  return terms;
}

/** About how many words websearch_to_tsquery reads in `q`: each part of a joined word, and the whole of it. */
export function parsedWords(q: string): number {
  const text = rewriteCjkQuery(q);
  const parts = text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  // A word joined by "-" is read whole and by parts (the parser's hword forms).
  const joined = text.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu)?.length ?? 0;
  return parts + joined;
}

/**
 * The query with every run of "-" (and the punctuation and spaces between them) cut to its first "-":
 * websearch_to_tsquery stacks a NOT for each and fails ("tsquery stack too small") past 32 of them.
 */
export function collapseNegations(q: string): string {
  return q.replace(/-[^\p{L}\p{N}"]*/gu, (run) => (run.indexOf("-", 1) === -1 ? run : "-" + /\s*$/.exec(run)![0]));
}

/** Why the query cannot be searched (a sentence for a 422), or null. */
export function queryProblem(q: string): string | null {
  const { positive, negative } = queryTerms(q);
  if (positive === 0) return "give at least one word to find (a query of only -excluded words would match everything)";
  if (positive + negative > SEARCH_MAX_TERMS) return `use at most ${SEARCH_MAX_TERMS} words and phrases`;
  if (parsedWords(q) > SEARCH_MAX_WORDS)
    return `use at most ${SEARCH_MAX_WORDS} words in all (a word joined by hyphens or other marks counts each part)`;
  return null;
}

/**
 * The lexemes of a tsquery's text as querytree() gives it (no negation): the positive terms a matching passage
 * may hold, each once, in order of appearance. A quoted lexeme doubles its quotes; nothing outside quotes is one.
 */
export function positiveLexemes(tsquery: string): string[] {
  const lexemes = [...tsquery.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  return [...new Set(lexemes)];
}

/** The lexemes of a tsquery's text read as prefixes (`'laun':*`): a word being typed. */
export function prefixLexemes(tsquery: string): string[] {
  const lexemes = [...tsquery.matchAll(/'((?:[^']|'')*)':[A-D]*\*/g)].map((m) => m[1]!.replace(/''/g, "'"));
  return [...new Set(lexemes)];
}
