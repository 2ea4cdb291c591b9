import { SEARCH_MAX_OFFSET, SEARCH_MAX_PAGE } from "@/lib/search/schemas";

// How one search finds its candidates (search-statement.ts), chosen per query from the query's terms and the
// size of the scope; never which moments are best, which the score alone decides. The figures: lib/search/README.md.

/**
 * The deepest position a page can reach (SEARCH_MAX_OFFSET plus the largest page): at most this many of a
 * query's best matches are ranked and paged through, so every page that can be asked for is exact.
 */
export const SEARCH_MAX_CANDIDATES = SEARCH_MAX_OFFSET + SEARCH_MAX_PAGE;

/**
 * A term's df: the passages the caller may see that hold it, counted up to this many (visible-terms.ts); a term
 * in more is given this many.
 */
export const DF_BOUND = 1_000;

/**
 * A scope (the caller's done entries, the published transcripts, a show's) holding at most this many passages
 * is read whole, each passage matched and scored: less work than reading postings and probing each one's
 * visibility. Counted up to this bound, so a large library costs the count's bound, not its size.
 */
export const SCOPE_MAX_PASSAGES = 2_000;

/**
 * Postings read per query of several terms at most, whatever its shape; the rarest term's list gets half of
 * them.
 */
export const POSTINGS_EXAMINED = 4_096;

/**
 * Candidates of a query of several terms in two or more lists, at most: half the rarest term's best matches, half
 * the other terms' (each scored against every term of its reading, so their number is the cost of many terms).
 */
export const MULTI_TERM_CANDIDATES = 512;

/**
 * A conjunction of several terms (no OR) with at most this many matches is ranked whole, found by the words'
 * index (which intersects their lists: a rare conjunction of common words costs about what its common words'
 * lists do), so it is exact; with more, by the terms' postings (the fixed candidate set). Common words that are
 * seldom said together were missed by the postings' best (recall@10 0.00 for two such queries of the relevance
 * bench's 50).
 */
export const CONJUNCTION_MATCHES = 1_000;

/**
 * …when its terms' passages, summed (what the index's intersection reads), are at most this many: a phrase of
 * thirty common words would read every one of their lists (several times an ordinary word's search) and goes to
 * the terms' postings instead.
 */
export const CONJUNCTION_POSTINGS = 100_000;

/**
 * A query of one term (per reading) examines at most this many postings: a term's list in impact order is
 * its score order, so reading it stops at the page's needs, and this bounds the search for visible ones
 * when the scope is a small share of the passages.
 */
export const SINGLE_TERM_EXAMINED = 20_000;

/** The weight of the passage's proximity (ts_rank_cd normalized to [0, 1)) for a query of two or more terms. */
export const PROXIMITY_WEIGHT = 1.5;

/** One of the query's positive terms, as the index holds it. */
export interface QueryTerm {
  term: string;
  /** SearchTerm's id; null for a term no passage the caller may see holds (nothing to read, nothing to score). */
  id: number | null;
  /** Passages the caller may see that hold it, counted up to DF_BOUND. */
  df: number;
  /** The readings (indexes into the query's readings) whose positive terms hold it. */
  readings: number[];
}

/** A term's posting list as the statement reads it: its best `examine` postings, the first `keep` visible matches. */
export interface PostingList {
  termId: number;
  /** Only passages of these readings' configurations (a reading's own terms decide its passages' place). */
  readings: number[];
  examine: number;
  keep: number;
}

export type SearchPlan =
  /** Every visible match of the scope, scored (a small scope, and rankAllMatches). */
  | { driver: "scope" }
  /**
   * Every visible match found by the words' index (rankAllMatches), or, with `bound`, at most bound + 1 of them:
   * a conjunction whose matches are no more than `bound` is ranked whole (CONJUNCTION_MATCHES).
   */
  | { driver: "all"; bound?: number }
  /**
   * The terms' posting lists, best first. `exact`: each reading has one positive term, so each list's order is
   * its score order and the first `prefix` matches of the lists' union, by score, are the query's best:
   * pages are slices of a prefix, the same whatever `prefix` is as long as it reaches them.
   */
  | { driver: "postings"; lists: PostingList[]; exact: boolean; prefix: number };

/** idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)): BM25's, positive for every df ≤ N. */
export function idf(passages: number, df: number): number {
  const n = Math.max(passages, df);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The posting lists of a query whose scope is too large to read whole. `terms`: its positive terms (those no
 * passage holds left out); `readingTerms`: how many distinct positive terms each reading has; `need`: the
 * moments the page needs (offset + limit + 1).
 */
export function postingsPlan(
  terms: readonly QueryTerm[],
  readingTerms: readonly number[],
  need: number,
  prefix?: number,
): Extract<SearchPlan, { driver: "postings" }> {
  const held = terms.filter((t): t is QueryTerm & { id: number } => t.id !== null).sort((a, b) => a.df - b.df);
  const exact = readingTerms.every((n) => n <= 1);
  if (exact) {
    // At most 3 moments of a transcript: three times the page's needs usually give them; where they do not,
    // find-moments.ts asks again with the bound.
    const keep = prefix ?? Math.min(SEARCH_MAX_CANDIDATES, 3 * need);
    return {
      driver: "postings",
      exact,
      prefix: keep,
      lists: held.map((t) => ({ termId: t.id, readings: t.readings, examine: SINGLE_TERM_EXAMINED, keep })),
    };
  }
  // Several terms: a fixed set of candidates, whatever the page, so pages never repeat or skip. Every match of
  // a conjunction holds its rarest term, read first and furthest (all of it, when it is rare enough: exact); a
  // passage that scores high overall is high in at least one list, so each other term's best are added.
  const lists = held.slice(0, 32);
  const rest = Math.max(1, lists.length - 1);
  return {
    driver: "postings",
    exact,
    prefix: SEARCH_MAX_CANDIDATES,
    lists: lists.map((t, i) => ({
      termId: t.id,
      readings: t.readings,
      examine: i === 0 ? POSTINGS_EXAMINED / 2 : Math.max(64, Math.floor(POSTINGS_EXAMINED / 2 / rest)),
      keep:
        lists.length === 1
          ? SEARCH_MAX_CANDIDATES
          : i === 0
            ? Math.ceil(MULTI_TERM_CANDIDATES / 2)
            : Math.max(8, Math.floor(MULTI_TERM_CANDIDATES / 2 / rest)),
    })),
  };
}
