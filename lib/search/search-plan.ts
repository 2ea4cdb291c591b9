import type { Db } from "@/lib/db/client";
import { SEARCH_MAX_OFFSET, SEARCH_MAX_PAGE, type SearchQuery } from "@/lib/search/schemas";

// How the search statement (find-moments.ts) finds its candidates. Reading in table order or by the word
// index's bitmap changes what the statement costs, never which moments it finds; probing the library's
// history or not changes them only for a word with more visible matches than are ranked (probesHistory).
// search-scale.int.test.ts compares them.

/** Who may see a transcript: the caller's complete history entries, or a live publication. */
export type SearchScope = { kind: "library"; userId: string } | { kind: "public" };

/** probe: see probesHistory; inOrder: see scansInOrder. */
export type SearchPlan = { probe: boolean; inOrder: boolean };

/**
 * At most this many matching passages are ranked: a query matching more (a frequent word, common words
 * OR'ed) is ranked among the first this many visible ones found, so that its cost does not grow with the
 * index (issue 44: at a million passages a word in 10 % of them matched 96,000, all ranked). Every page of
 * one query ranks the same candidates (the same statement up to its OFFSET), so pages neither repeat nor
 * skip a moment. The bound is the deepest position a page can reach (SEARCH_MAX_OFFSET plus the largest
 * page: 1,050), so every page that can be asked for is full unless one transcript holds more than 3 of the
 * candidates (MOMENTS_PER_TRANSCRIPT). It was 2,000: the candidates are the first found, not the best, so
 * ranking more of them bought no relevance, and ranking and checking them was most of a frequent word's cost.
 */
export const SEARCH_MAX_CANDIDATES = SEARCH_MAX_OFFSET + SEARCH_MAX_PAGE;

/**
 * Whether the library search of a user with `entries` done history entries, among `transcripts`, checks
 * each candidate passage against the caller's history by an index probe (`Transcription(transcriptId, userId, state)`), in the order the word's index yields them, stopping at the
 * candidate bound (true), or leaves the plan to PostgreSQL (false), which for a history this size reads the
 * caller's entries first: passages of their transcripts by the passages' primary key (a small history), or a
 * hash of all their entries that the candidates are looked up in (issue 44b: 100,000 entries hashed for every
 * search, 59-73 ms at a million, the largest part of the statement).
 *
 * Probing finds SEARCH_MAX_CANDIDATES visible passages after about SEARCH_MAX_CANDIDATES × transcripts /
 * entries probes when the caller's transcripts are spread evenly among everyone's (fewer when their passages
 * come first), never more than the word's matches; the hash costs one row per entry. So probing is chosen
 * when entries² ≥ 2 × SEARCH_MAX_CANDIDATES × transcripts (2 for a probe's higher cost per row than a hash
 * row's): at a million transcripts from about 46,000 done entries. A probe reads the index alone
 * (`Transcription(transcriptId, userId, state)`, migration search_probe_index). Below that, a small history read first
 * is cheap while probing would test every match of a frequent word (1.9 s for a user with 90 entries at a
 * million). Entries come from "HistoryCount" (kept by a trigger), transcripts from the planner's estimate
 * (pg_class.reltuples; -1 before the first ANALYZE, read as "small"). `OFFSET 0` keeps the EXISTS a
 * per-row subplan (PostgreSQL does not turn a sub-select with OFFSET into a join). Either way the
 * candidates are the first SEARCH_MAX_CANDIDATES visible matches found (the hash plan also reads the
 * passages in the index's order; a small history read first yields them in its own order), and a word with
 * fewer visible matches than that gives the same moments by both (search-scale.int.test.ts).
 */
export function probesHistory(entries: number, transcripts: number): boolean {
  return transcripts > 0 && entries * entries >= 2 * SEARCH_MAX_CANDIDATES * transcripts;
}

const SCAN_ROW_COST = 3;

/**
 * Whether the candidates are found by reading the passages in table order, testing each against the query
 * and stopping at SEARCH_MAX_CANDIDATES visible matches (true), instead of the word index's bitmap (false).
 * The bitmap holds every match before the first is read (issue 44: 97,000 for a word in 10 % of a million
 * passages, 20-22 of the statement's 45 ms), and reading in order stops after about SEARCH_MAX_CANDIDATES ×
 * passages ÷ (matches × visibleShare) rows (10,500 there: 10-14 ms with the visibility checks). A row read
 * and tested costs about SCAN_ROW_COST bitmap entries (0.56 against 0.21 µs at a million, four readings of
 * the query), so in order is chosen when matches² × visibleShare ≥ SCAN_ROW_COST × SEARCH_MAX_CANDIDATES ×
 * passages: at a million passages, a word in 5.6 % of them that everyone can see. visibleShare assumes the
 * visible passages are spread evenly through the table (a large history's usually are), which is the
 * pessimistic case for reading in order. Both ways give the same candidates: a bitmap heap scan also
 * returns its rows in table order (passages are only inserted and deleted, never updated in place, so
 * no row moves within its page), and the statement turns off synchronized scans, which would start a
 * scan where another one is.
 */
export function scansInOrder(matches: number, passages: number, visibleShare: number): boolean {
  return passages > 0 && matches * matches * visibleShare >= SCAN_ROW_COST * SEARCH_MAX_CANDIDATES * passages;
}

/** What the choices above read: PostgreSQL's estimates (pg_class.reltuples: -1 before the first ANALYZE). */
async function sizes(db: Db, userId: string | null) {
  const estimate = (table: string) =>
    `coalesce((SELECT c.reltuples FROM pg_class c WHERE c.oid = '"${table}"'::regclass), -1)::float8`;
  const [row] = await db.$queryRawUnsafe<
    { entries: number; transcripts: number; passages: number; publications: number }[]
  >(
    `SELECT coalesce((SELECT sum(c."n") FROM "HistoryCount" c WHERE c."userId" = $1 AND c."state" = 'done'), 0)::float8 AS entries,
            ${estimate("Transcript")} AS transcripts, ${estimate("TranscriptPassage")} AS passages,
            ${estimate("Publication")} AS publications`,
    userId,
  );
  return row!;
}

/** PostgreSQL's estimate of the passages the query matches (from the index's statistics of frequent words). */
async function estimatedMatches(db: Db, matches: string, params: unknown[]): Promise<number> {
  type Plan = [{ Plan: { "Plan Rows": number } }];
  const [row] = await db.$queryRawUnsafe<{ "QUERY PLAN": Plan | string }[]>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM "TranscriptPassage" p WHERE ${matches}`,
    ...params,
  );
  const plan = row?.["QUERY PLAN"];
  // node-postgres parses the json column; a driver that does not hands over its text.
  return (typeof plan === "string" ? (JSON.parse(plan) as Plan) : plan)?.[0].Plan["Plan Rows"] ?? 0;
}

/**
 * ANALYZE's most common words of the passages' index, with the share of passages holding each
 * (pg_stats.most_common_elems of "TranscriptPassage"."tsv", the figures the planner estimates a word's matches
 * by); read again after COMMON_WORDS_TTL_MS, per database. Reading pg_stats costs about 2 ms, a quarter of a
 * rare word's whole search, and the figures change only when the table is analyzed.
 */
const commonWords = new WeakMap<Db, { read: number; shares: Promise<Map<string, number>> }>();
const COMMON_WORDS_TTL_MS = 10 * 60_000;

function commonWordShares(db: Db): Promise<Map<string, number>> {
  const kept = commonWords.get(db);
  if (kept && performance.now() - kept.read < COMMON_WORDS_TTL_MS) return kept.shares;
  const shares = db
    .$queryRawUnsafe<{ words: string[] | null; shares: number[] | null }[]>(
      `SELECT s.most_common_elems::text::text[] AS words, s.most_common_elem_freqs::float8[] AS shares FROM pg_stats s
       WHERE s.schemaname = current_schema() AND s.tablename = 'TranscriptPassage' AND s.attname = 'tsv'`,
    )
    .then(([row]) => new Map((row?.words ?? []).map((word, i) => [word, row!.shares![i]!] as const)))
    // Without the figures every word is taken for rare: the bitmap, which finds the same candidates.
    .catch(() => {
      commonWords.delete(db);
      return new Map<string, number>();
    });
  commonWords.set(db, { read: performance.now(), shares });
  return shares;
}

/** What choosePlan reads besides the query: sizes, and the most common words' shares. */
export function planFacts(db: Db, scope: SearchScope) {
  return Promise.all([sizes(db, scope.kind === "library" ? scope.userId : null), commonWordShares(db)]);
}

/**
 * The plan of one search. `matches` is the statement's match condition on passages "p", whose parameters are
 * `params`; `groups`, the query's readings with their words.
 */
export async function choosePlan(
  db: Db,
  scope: SearchScope,
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
  // How the library's visibility is checked depends on how much of the index is the caller's (probesHistory).
  const probe = scope.kind === "library" && (forced.probe ?? probesHistory(known.entries, known.transcripts));
  // At most the share of passages the query matches: its common words' shares added up (a word ANALYZE did
  // not count among the most common is rare, taken as none).
  const frequency = [...new Set(groups.flatMap((group) => [...group.words]))].reduce(
    (sum, word) => sum + (shares.get(word) ?? 0),
    0,
  );
  const share = Math.max(
    0,
    Math.min(1, (scope.kind === "library" ? known.entries : known.publications) / known.transcripts),
  );
  // Reading in order is weighed where each candidate's visibility is a probe, and without a platform or
  // language filter (a join the plan could then read whole). PostgreSQL's estimate of the matches (a round
  // trip) is asked for only where the common words' shares allow reading in order: not for a rare word.
  const inOrder =
    forced.inOrder ??
    ((scope.kind === "public" || probe) &&
      !query.platform &&
      !query.lang &&
      scansInOrder(Math.min(1, frequency) * known.passages, known.passages, share) &&
      scansInOrder(await estimatedMatches(db, matches, [...params]), known.passages, share));
  return { probe, inOrder };
}
