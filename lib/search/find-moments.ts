import { createHash } from "node:crypto";
import { getDb, type Db } from "@/lib/db/client";
import { postgresMessage, sqlState } from "@/lib/db/sql-state";
import { env } from "@/lib/env";
import { RequestValidationError } from "@/lib/http/validation";
import { rewriteCjkQuery, spaceCjkPhrases } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { collapseNegations, entryQuery } from "@/lib/search/query-terms";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import { hasCorrections, readingsOf, runSearchStatement } from "@/lib/search/queries";
import { decodeCursor, type SearchQuery } from "@/lib/search/schemas";
import { choosePlan, planFacts, SEARCH_MAX_CANDIDATES, type SearchPlan } from "@/lib/search/search-plan";
import { matchCondition, searchStatement, type SearchScope } from "@/lib/search/search-statement";

// A search: the query's readings (each configuration's tsquery; a reading with nothing the index can look up,
// only -excluded words as querytree() says, is dropped: it would match every passage of its configuration), the
// plan (search-plan.ts), then one statement (search-statement.ts) under its planner settings
// (planner-settings.ts) and SEARCH_TIMEOUT_MS.

/** At most this many moments of one transcript per answer, so one long video cannot fill a page. */
export const MOMENTS_PER_TRANSCRIPT = 3;

export interface MomentRow {
  transcriptId: string;
  seq: number;
  rank: number;
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
 * Empty when every configuration reads nothing (only stop words, only punctuation). With each reading, the
 * words of the query as its configurations index them (excluded ones too), for scansInOrder's bound.
 */
async function readings(db: Db, q: string, configs: readonly string[]) {
  let rows: Awaited<ReturnType<typeof readingsOf>>;
  try {
    rows = await readingsOf(db, collapseNegations(rewriteCjkQuery(q)), configs);
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
  const byQuery = new Map<string, { configs: string[]; words: Set<string>; indexable: string }>();
  for (const row of findable) {
    const group = byQuery.get(row.query) ?? { configs: [], words: new Set<string>(), indexable: row.indexable };
    group.configs.push(row.config);
    for (const word of row.words) group.words.add(word);
    byQuery.set(row.query, group);
  }
  return [...byQuery].map(([query, group]) => ({ query, ...group }));
}

/** The query's readings and the plan chosen for them; null when the query has nothing to find. */
async function prepare(scope: SearchScope, query: SearchQuery, forced: Partial<SearchPlan>) {
  const db = await getDb();
  const configs = query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS;
  const [groups, facts, corrects] = await Promise.all([
    readings(db, query.q, configs),
    scope.kind === "public" ? planFacts(db) : null,
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
  ]);
  if (groups.length === 0) return null;
  const { matches, params } = matchCondition(groups);
  const plan = facts ? await choosePlan(db, query, { groups, facts, matches, params }, forced) : { inOrder: false };
  // What an entry's lexemes must hold for one of its passages to match: any reading, its lexemes after the
  // caller's key, without its phrases.
  const lexemes =
    scope.kind === "library"
      ? entryQuery([...new Set(groups.map((g) => `(${g.indexable})`))].join(" | "), libraryKey(scope.userId))
      : null;
  return { db, groups, plan, lexemes, corrects };
}

/** The key before each of a user's entries' lexemes: prisma/sql/functions/verbatim_library_key.sql. */
const libraryKey = (userId: string) => createHash("sha256").update(userId, "utf8").digest("hex").slice(0, 8);

/** The plan a search gets (tests): see choosePlan. */
export async function searchPlanOf(scope: SearchScope, query: SearchQuery): Promise<SearchPlan | null> {
  return (await prepare(scope, query, {}))?.plan ?? null;
}

/** One page of moments (one row more than `limit` when there is a next page), best first. */
export async function findMoments(
  scope: SearchScope,
  query: SearchQuery,
  /** The plan's choices made (tests); by default as choosePlan makes them. */
  forced: Partial<SearchPlan> = {},
): Promise<MomentRow[]> {
  const prepared = await prepare(scope, query, forced);
  if (!prepared) return [];
  const { db, groups, plan, lexemes, corrects } = prepared;
  const statement = searchStatement({
    scope,
    readings: groups,
    platform: query.platform,
    lang: query.lang,
    limit: query.limit + 1,
    offset: query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0,
    perTranscript: MOMENTS_PER_TRANSCRIPT,
    candidates: SEARCH_MAX_CANDIDATES,
    inOrder: plan.inOrder,
    lexemes,
    corrects,
  });
  try {
    return await runSearchStatement<MomentRow>(
      db,
      statement,
      searchPlannerSettings({ timeoutMs: env().SEARCH_TIMEOUT_MS, inOrder: plan.inOrder }),
    );
  } catch (error) {
    // 57014 query_canceled: the statement ran past SEARCH_TIMEOUT_MS.
    if (sqlState(error) === "57014")
      throw refuseQuery(query.q, "this search takes too long; use more specific words or a phrase");
    throw error;
  }
}
