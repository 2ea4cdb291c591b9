import type { Closeness } from "@/lib/embeddings/meaning-profile";
import { getDb, type Db } from "@/lib/db/client";
import { postgresMessage, sqlState } from "@/lib/db/sql-state";
import { RequestValidationError } from "@/lib/http/validation";
import { hasCjk, rewriteCjkQuery, spaceCjkPhrases } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { collapseNegations, positiveLexemes, prefixLexemes } from "@/lib/search/query-terms";
import { termsStartingWith, wordBegun } from "@/lib/search/suggest";
import { asSearchError, statementTimeoutMs, stopIfPastDeadline, unlessTimedOut } from "@/lib/search/deadline";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import {
  hasCorrections,
  commonPostingsEstimate,
  postingsUpTo,
  readingsOf,
  runSearchStatement,
  scopePassages,
  termIds,
} from "@/lib/search/queries";
import { decodeCursor, type SearchQuery } from "@/lib/search/schemas";
import {
  CONJUNCTION_MATCHES,
  CONJUNCTION_POSTINGS,
  DF_BOUND,
  idf,
  postingsPlan,
  SCOPE_MAX_PASSAGES,
  SEARCH_MAX_CANDIDATES,
  type QueryTerm,
  type SearchPlan,
} from "@/lib/search/search-plan";
import { searchStatement, type ScoredTerm, type SearchScope } from "@/lib/search/search-statement";
import { visibleCounts, type Vocabulary } from "@/lib/search/visible-terms";

// A search: the query's readings (each configuration's tsquery; a reading with nothing the index can look up,
// only -excluded words as querytree() says, is dropped: it would match every passage of its configuration), their
// positive terms with their idf (computed here once per query, so every way of finding the candidates scores
// with the same numbers), the plan (search-plan.ts), then one statement (search-statement.ts) under its planner
// settings (planner-settings.ts) and what is left of the search's deadline (deadline.ts).

/** At most this many moments of one transcript per answer, so one long video cannot fill a page. */
export const MOMENTS_PER_TRANSCRIPT = 3;

export interface MomentRow {
  transcriptId: string;
  seq: number;
  rank: number;
  /** The passage's id (the tie-breaker: newer first). */
  pid: bigint;
  title: string | null;
  platform: string;
  videoId: string;
  lang: string;
  sourceUrl: string;
  segFrom: number;
  texts: string[];
  starts: number[];
  ends: number[];
  start: number;
  end: number;
  /** The passage's text with MARK_START/MARK_END around each matched word (CJK matches are marked later). */
  marked: string;
  slug: string | null;
  /** How it was found (absent: by its words, the keyword search; some_words: by some of them, some-words.ts). */
  matched?: "words" | "some_words" | "meaning" | "both";
  /** How close its meaning is to the query's (null or absent: found by its words alone). */
  closeness?: Closeness | null;
  /** Found by meaning alone: the index within the passage of the line that answers, marked and linked. */
  answerLine?: number;
}

/** A 422 at query.q, in the contract's validation shape (MCP's search tool says the same as a tool error). */
function refuseQuery(q: string, msg: string): RequestValidationError {
  return new RequestValidationError([
    { type: "value_error", loc: ["query", "q"], msg: `Value error, ${msg}`, input: q, ctx: { error: {} } },
  ]);
}

/**
 * The query as each configuration reads it, grouped: most configurations read most queries alike (the same
 * tsquery), so the statement gets one branch per distinct reading rather than one per configuration.
 * Empty when every configuration reads nothing (only stop words, only punctuation). With each reading, what
 * the index can look up of it (querytree(): its positive terms).
 */
async function readings(db: Db, q: string, configs: readonly string[], typing: boolean) {
  // While typing, the last word is begun: found by the words it begins. A CJK run of two or more characters is
  // found inside longer runs by its bigrams already; one character has none, and begins bigrams.
  const begun = typing ? wordBegun(q) : null;
  const typed = begun && (!hasCjk(begun.word) || [...begun.word].length === 1) ? begun : null;
  let rows: Awaited<ReturnType<typeof readingsOf>>;
  try {
    rows = await readingsOf(
      db,
      collapseNegations(rewriteCjkQuery(typed ? typed.before : q)),
      configs,
      typed?.word ?? null,
    );
  } catch (error) {
    // The parser's own limits ("tsquery stack too small", a word too long): the query's shape, not our failure.
    if (/tsquery|word is too long/i.test(postgresMessage(error)) || sqlState(error)?.startsWith("54"))
      throw refuseQuery(q, 'this query cannot be read; use plain words, "phrases", -excluded words and OR');
    throw error;
  }
  const read = rows.filter((row) => row.query !== "").map((row) => ({ ...row, query: spaceCjkPhrases(row.query, q) }));
  const findable = read.filter((row) => row.indexable !== "T");
  if (read.length > 0 && findable.length === 0)
    throw refuseQuery(q, "give at least one word to find (a query of only -excluded words would match everything)");
  const byQuery = new Map<string, { configs: string[]; indexable: string }>();
  for (const row of findable) {
    const group = byQuery.get(row.query) ?? { configs: [], indexable: row.indexable };
    group.configs.push(row.config);
    byQuery.set(row.query, group);
  }
  return [...byQuery].map(([query, group]) => ({ query, ...group }));
}

/**
 * A large scope's slow figures, kept per process for FIGURES_TTL_MS (they change slowly; a stale one is answered
 * while it is read again): its passages (N), and its terms' df (each a probe per posting, up to DF_BOUND visible
 * ones). A term none of its passages holds is never kept: a word just published is found at once. A small
 * scope's are counted every time (exact, and its cost is the scope's).
 */
const FIGURES_TTL_MS = 10 * 60_000;
const FIGURES_KEPT = 20_000;
/** A large scope's N is counted up to this many passages. */
const SCOPE_COUNTED = 2_000_000;
const figures = new WeakMap<Db, Map<string, { read: number; value: Promise<number> }>>();

function keptFigure(db: Db, key: string, read: () => Promise<number>): Promise<number> {
  const kept = figures.get(db) ?? new Map<string, { read: number; value: Promise<number> }>();
  figures.set(db, kept);
  const old = kept.get(key);
  if (old && performance.now() - old.read < FIGURES_TTL_MS) return old.value;
  if (kept.size >= FIGURES_KEPT) kept.delete(kept.keys().next().value!);
  const value = read();
  kept.set(key, { read: performance.now(), value });
  value.catch(() => kept.delete(key));
  // A stale figure serves while the new one is read.
  return old ? old.value.catch(() => value) : value;
}

/** The figure kept under `key`, while fresh. */
function keptValue(db: Db, key: string): Promise<number> | undefined {
  const kept = figures.get(db)?.get(key);
  return kept !== undefined && performance.now() - kept.read < FIGURES_TTL_MS ? kept.value : undefined;
}

const scopeKey = (scope: SearchScope) =>
  scope.kind === "library" ? `library:${scope.userId}` : `public:${scope.show ?? ""}`;

/** N of idf: a small scope's passages as counted; a larger one's kept (keptFigure). */
function scopeSize(db: Db, scope: SearchScope, counted: number): Promise<number> {
  if (counted <= SCOPE_MAX_PASSAGES) return Promise.resolve(counted);
  return keptFigure(db, `${scopeKey(scope)}:passages`, () => scopePassages(db, scope, SCOPE_COUNTED));
}

/** The terms' df in the scope (visible-terms.ts); a large scope's kept (keptFigure) once counted. */
async function termCounts(
  db: Db,
  vocabulary: Vocabulary,
  ids: readonly number[],
  large: boolean,
): Promise<Map<number, number>> {
  const key = (id: number) => `${scopeKey(vocabulary.scope)}:df:${id}`;
  const kept = new Map(
    large ? ids.flatMap((id) => (keptValue(db, key(id)) ? [[id, keptValue(db, key(id))!] as const] : [])) : [],
  );
  const counts = await visibleCounts(
    db,
    vocabulary,
    ids.filter((id) => !kept.has(id)),
    DF_BOUND,
  );
  if (large) for (const [id, n] of counts) void keptFigure(db, key(id), () => Promise.resolve(n));
  for (const [id, n] of kept) counts.set(id, await n);
  return counts;
}

/**
 * What a search is made of: the query's readings, their terms with their idf, the scope's size. Every figure is
 * the scope's own (visible-terms.ts): the words a prefix stands for, each term's df and N count only passages the
 * caller may see. `byPostings`: read them as for a large scope whatever its size (tests).
 */
async function prepare(scope: SearchScope, query: SearchQuery, byPostings = false) {
  const db = await getDb();
  const configs = query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS;
  const [groups, corrects, scoped] = await Promise.all([
    readings(db, query.q, configs, query.prefix),
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
    scopePassages(db, scope, SCOPE_MAX_PASSAGES + 1),
  ]);
  if (groups.length === 0) return null;
  stopIfPastDeadline();
  const small = scoped <= SCOPE_MAX_PASSAGES;
  const vocabulary = { scope, small: small && !byPostings, corrects };
  // A prefix stands for the words the caller may see that it begins (at most PREFIX_TERMS of them, shortest first).
  const begun = [...new Set(groups.flatMap((g) => prefixLexemes(g.indexable)))];
  const begins = new Map(
    await Promise.all(begun.map(async (lexeme) => [lexeme, await termsStartingWith(db, vocabulary, lexeme)] as const)),
  );
  const lexemes = groups.map((g) => [
    ...new Set(
      positiveLexemes(g.indexable).flatMap((lexeme) => (begins.get(lexeme)?.length ? begins.get(lexeme)! : [lexeme])),
    ),
  ]);
  const all = [...new Set(lexemes.flat())];
  stopIfPastDeadline();
  const [ids, passages] = await Promise.all([termIds(db, all), scopeSize(db, scope, scoped)]);
  stopIfPastDeadline();
  const counts = await termCounts(
    db,
    vocabulary,
    ids.flatMap((row) => (row.id === null ? [] : [row.id])),
    !small,
  );
  // A term no passage the caller may see holds is as a term nobody holds: nothing to read, nothing to score.
  const terms: QueryTerm[] = ids.map((row) => {
    const df = row.id === null ? 0 : (counts.get(row.id) ?? 0);
    return {
      term: row.term,
      id: df > 0 ? row.id : null,
      df,
      readings: lexemes.flatMap((words, i) => (words.includes(row.term) ? [i] : [])),
    };
  });
  const scored: ScoredTerm[] = terms.flatMap((t) =>
    t.id === null ? [] : t.readings.map((reading) => ({ id: t.id!, idf: idf(passages, t.df), reading })),
  );
  return {
    db,
    groups,
    terms,
    scored,
    readingTerms: lexemes.map((l) => l.length),
    corrects,
    small,
  };
}

/** Runs the statement for one page under the search's settings; past the search's deadline, search_timed_out (503). */
async function run(
  prepared: NonNullable<Awaited<ReturnType<typeof prepare>>>,
  scope: SearchScope,
  query: SearchQuery,
  plan: SearchPlan,
  page: { limit: number; offset: number },
  transcriptId: string | null = null,
) {
  const { db, groups, scored, readingTerms, corrects } = prepared;
  const statement = searchStatement({
    scope,
    readings: groups,
    terms: scored,
    readingTerms,
    plan,
    platform: query.platform,
    lang: query.lang,
    limit: page.limit,
    offset: page.offset,
    perTranscript: MOMENTS_PER_TRANSCRIPT,
    corrects,
    transcriptId,
  });
  try {
    const rows = await runSearchStatement<MomentRow & { found: number }>(
      db,
      statement,
      searchPlannerSettings({
        timeoutMs: statementTimeoutMs(),
        indexOnly: plan.driver === "all" && plan.bound !== undefined,
      }),
    );
    return { found: rows[0]?.found ?? 0, moments: rows.filter((row) => row.transcriptId !== null) };
  } catch (error) {
    throw asSearchError(error);
  }
}

/** The ids of the terms a passage the caller may see holds. */
const heldIds = (terms: readonly QueryTerm[]) => [...new Set(terms.flatMap((t) => (t.id === null ? [] : [t.id])))];

/** The plan a search gets (tests): see search-plan.ts. */
export async function searchPlanOf(scope: SearchScope, query: SearchQuery): Promise<SearchPlan | null> {
  const prepared = await prepare(scope, query);
  if (!prepared) return null;
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  return prepared.small
    ? { driver: "scope" }
    : postingsPlan(prepared.terms, prepared.readingTerms, offset + query.limit + 1);
}

/**
 * Whether the terms' postings sum to at most `CONJUNCTION_POSTINGS`. Where the statistics already put the common ones
 * among them past twice the bound, the count is not made: counting reads up to the bound's 100,001 index entries,
 * what made a long phrase of common words the costliest query. Near the bound (an estimate is a sample's) it counts.
 */
async function postingsWithinBound(db: Db, ids: number[]): Promise<boolean> {
  if ((await commonPostingsEstimate(db, ids)) > 2 * CONJUNCTION_POSTINGS) return false;
  return (await postingsUpTo(db, ids, CONJUNCTION_POSTINGS)) <= CONJUNCTION_POSTINGS;
}

/** One page of moments (one row more than `limit` when there is a next page), best first. */
export async function findMoments(
  scope: SearchScope,
  query: SearchQuery,
  /**
   * The plan's driver chosen (tests); by default the scope's size chooses, and a conjunction with few matches is
   * ranked whole.
   */
  forced: { driver?: "scope" | "postings" } = {},
): Promise<MomentRow[]> {
  const prepared = await prepare(scope, query, forced.driver === "postings");
  if (!prepared) return [];
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  const page = { limit: query.limit + 1, offset };
  const need = offset + page.limit;
  if ((forced.driver ?? (prepared.small ? "scope" : "postings")) === "scope")
    return (await run(prepared, scope, query, { driver: "scope" }, page)).moments;
  const plan = postingsPlan(prepared.terms, prepared.readingTerms, need);
  stopIfPastDeadline();
  // A conjunction of several terms with few matches: all of them, ranked (exact), where the words' lists the index
  // intersects are short enough; decided by the query alone, so every page decides alike.
  // The terms' postings are counted whoever holds them (df stops at DF_BOUND, and what the index's intersection
  // reads is every passage's): a long phrase of common words read them all, past the deadline. A word begun stands
  // for several words, one or another: no conjunction.
  if (
    !forced.driver &&
    !plan.exact &&
    prepared.groups.every((group) => !group.query.includes("|") && !group.query.includes(":*")) &&
    (await postingsWithinBound(prepared.db, heldIds(prepared.terms)))
  ) {
    // Cut by the deadline, the terms' postings find the candidates instead.
    const all = await unlessTimedOut(
      () => run(prepared, scope, query, { driver: "all", bound: CONJUNCTION_MATCHES }, page),
      null,
    );
    if (all && all.found <= CONJUNCTION_MATCHES) return all.moments;
  }
  const first = await run(prepared, scope, query, plan, page);
  // A prefix of the best matches that capped (3 a transcript) falls short of the page: the page from the longest
  // prefix, which starts with the same moments.
  if (
    plan.exact &&
    first.moments.length < page.limit &&
    first.found >= plan.prefix &&
    plan.prefix < SEARCH_MAX_CANDIDATES
  )
    // Cut by the deadline: the page as far as the first prefix reached.
    return unlessTimedOut(
      async () =>
        (
          await run(
            prepared,
            scope,
            query,
            postingsPlan(prepared.terms, prepared.readingTerms, need, SEARCH_MAX_CANDIDATES),
            page,
          )
        ).moments,
      first.moments,
    );
  return first.moments;
}

/**
 * Every visible match of `query` in `scope`, scored by the search's own function, at most 3 a transcript, the
 * best `k` (tests and the relevance bench compare the search's pages with it).
 */
export async function rankAllMatches(scope: SearchScope, query: SearchQuery, k: number): Promise<MomentRow[]> {
  const prepared = await prepare(scope, query);
  if (!prepared) return [];
  return (await run(prepared, scope, query, { driver: "all" }, { limit: k, offset: 0 })).moments;
}

/**
 * The best moments (at most 3) of one transcript that match `query` as the caller of `scope` sees it: every match of
 * that transcript scored, visibility and corrections by the search's own rule (an alert's check, lib/alerts).
 */
export async function momentsInTranscript(
  scope: SearchScope,
  query: SearchQuery,
  transcriptId: string,
): Promise<MomentRow[]> {
  const prepared = await prepare(scope, query);
  if (!prepared) return [];
  const page = { limit: MOMENTS_PER_TRANSCRIPT, offset: 0 };
  return (await run(prepared, scope, query, { driver: "all" }, page, transcriptId)).moments;
}
