import type { Db } from "@/lib/db/client";
import { commonWordStatistics, estimatedMatches, estimatedSizes } from "@/lib/search/queries";
import { SEARCH_MAX_OFFSET, SEARCH_MAX_PAGE, type SearchQuery } from "@/lib/search/schemas";

// How the public search statement (search-statement.ts) finds its candidates. Reading in table order or by the
// word index's bitmap changes what the statement costs, never which moments it finds
// (search-scale.int.test.ts compares them). The library search has no such choice: it starts from the
// caller's own entries whose words hold the query (search-statement.ts, prisma/sql/functions/verbatim_entry_lexemes.sql).

/** inOrder: see scansInOrder. */
export type SearchPlan = { inOrder: boolean };

/**
 * At most this many matching passages are ranked: a query matching more (a frequent word, common words
 * OR'ed) is ranked among the first this many visible ones found, so that its cost does not grow with the
 * index (at a million passages a word in 10 % of them matched 96,000, all ranked). Every page of
 * one query ranks the same candidates (the same statement up to its OFFSET), so pages neither repeat nor
 * skip a moment. The bound is the deepest position a page can reach (SEARCH_MAX_OFFSET plus the largest
 * page: 1,050), so every page that can be asked for is full unless one transcript holds more than 3 of the
 * candidates (MOMENTS_PER_TRANSCRIPT). It was 2,000: the candidates are the first found, not the best, so
 * ranking more of them bought no relevance, and ranking and checking them was most of a frequent word's cost.
 */
export const SEARCH_MAX_CANDIDATES = SEARCH_MAX_OFFSET + SEARCH_MAX_PAGE;

const SCAN_ROW_COST = 3;

/**
 * Whether the candidates are found by reading the passages in table order, testing each against the query
 * and stopping at SEARCH_MAX_CANDIDATES visible matches (true), instead of the word index's bitmap (false).
 * The bitmap holds every match before the first is read, and reading in order stops after about
 * SEARCH_MAX_CANDIDATES × passages ÷ (matches × visibleShare) rows (the figures: lib/search/README.md). A row
 * read and tested costs about SCAN_ROW_COST bitmap entries (four readings of the query), so in order is
 * chosen when matches² × visibleShare ≥ SCAN_ROW_COST × SEARCH_MAX_CANDIDATES × passages: at a million passages, a word in 5.6 % of them that everyone can see. visibleShare assumes the
 * visible passages are spread evenly through the table (publications usually are), which is the
 * pessimistic case for reading in order. Both ways give the same candidates: a bitmap heap scan also
 * returns its rows in table order (passages are only inserted and deleted, never updated in place, so
 * no row moves within its page), and the statement turns off synchronized scans, which would start a
 * scan where another one is.
 */
export function scansInOrder(matches: number, passages: number, visibleShare: number): boolean {
  return passages > 0 && matches * matches * visibleShare >= SCAN_ROW_COST * SEARCH_MAX_CANDIDATES * passages;
}

/**
 * ANALYZE's most common words of the passages' index, with the share of passages holding each
 * (pg_stats.most_common_elems of "TranscriptPassage"."tsv", the figures the planner estimates a word's matches
 * by); read again after COMMON_WORDS_TTL_MS, per database. Reading pg_stats is a round trip a rare word's
 * search would otherwise not make, and the figures change only when the table is analyzed.
 */
const commonWords = new WeakMap<Db, { read: number; shares: Promise<Map<string, number>> }>();
const COMMON_WORDS_TTL_MS = 10 * 60_000;

function commonWordShares(db: Db): Promise<Map<string, number>> {
  const kept = commonWords.get(db);
  if (kept && performance.now() - kept.read < COMMON_WORDS_TTL_MS) return kept.shares;
  // Without the figures every word is taken for rare: the bitmap, which finds the same candidates.
  const shares = commonWordStatistics(db).catch(() => {
    commonWords.delete(db);
    return new Map<string, number>();
  });
  commonWords.set(db, { read: performance.now(), shares });
  return shares;
}

/** What choosePlan reads besides the query: sizes, and the most common words' shares. */
export function planFacts(db: Db) {
  return Promise.all([estimatedSizes(db), commonWordShares(db)]);
}

/**
 * The plan of one public search. `matches` is the statement's match condition on passages "p", whose
 * parameters are `params`; `groups`, the query's readings with their words.
 */
export async function choosePlan(
  db: Db,
  query: SearchQuery,
  {
    groups,
    facts: [known, shares],
    matches,
    params,
  }: {
    groups: { words: Set<string> }[];
    facts: Awaited<ReturnType<typeof planFacts>>;
    matches: string;
    params: unknown[];
  },
  forced: Partial<SearchPlan> = {},
): Promise<SearchPlan> {
  // At most the share of passages the query matches: its common words' shares added up (a word ANALYZE did
  // not count among the most common is rare, taken as none).
  const frequency = [...new Set(groups.flatMap((group) => [...group.words]))].reduce(
    (sum, word) => sum + (shares.get(word) ?? 0),
    0,
  );
  const share = Math.max(0, Math.min(1, known.publications / known.transcripts));
  // Not with a platform or language filter (a join the plan could then read whole). PostgreSQL's estimate of
  // the matches (a round trip) is asked for only where the common words' shares allow reading in order: not
  // for a rare word.
  const inOrder =
    forced.inOrder ??
    (!query.platform &&
      !query.lang &&
      scansInOrder(Math.min(1, frequency) * known.passages, known.passages, share) &&
      scansInOrder(await estimatedMatches(db, matches, [...params]), known.passages, share));
  return { inOrder };
}
