import { createHash } from "node:crypto";
import { getDb, type Db } from "@/lib/db/client";
import { postgresMessage, sqlState } from "@/lib/db/sql-state";
import { env } from "@/lib/env";
import { RequestValidationError } from "@/lib/http/validation";
import { rewriteCjkQuery, spaceCjkPhrases } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { collapseNegations, entryQuery } from "@/lib/search/query-terms";
import { decodeCursor, type SearchQuery } from "@/lib/search/schemas";
import {
  choosePlan,
  planFacts,
  SEARCH_MAX_CANDIDATES,
  type SearchPlan,
  type SearchScope,
} from "@/lib/search/search-plan";

// The one search statement behind GET /v1/me/search, GET /v1/public/search and MCP's search_transcripts.
// Passages (see the migration 20261123123000_transcript_search) match when their tsvector matches the
// query as parsed by their own configuration; for each configuration the query is parsed once (the
// functions are immutable, so the planner folds them) and each branch of the OR can use the GIN index.
// A reading with nothing the index can look up (only -excluded words, as querytree() says) is dropped: it
// would match every passage of its configuration. At most SEARCH_MAX_CANDIDATES matches are ranked, and the
// statement runs under SEARCH_TIMEOUT_MS. Public search finds them as search-plan.ts chooses; the library
// search starts from the caller's done entries whose words ("lexemes", migration library_lexemes, after the
// caller's key) hold the query without its phrases and exclusions, then matches their passages.

/** At most this many moments of one transcript per answer, so one long video cannot fill a page. */
export const MOMENTS_PER_TRANSCRIPT = 3;

/** Marks around matched words in ts_headline's answer: private-use characters, removed from stored texts. */
export const MARK_START = "\ue000";
export const MARK_END = "\ue001";
const HEADLINE_OPTIONS = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;

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
  let rows: { config: string; query: string; indexable: string; words: string[] }[];
  try {
    rows = await db.$queryRawUnsafe(
      `SELECT c AS config, w::text AS query, querytree(w) AS indexable, tsvector_to_array(to_tsvector(c::regconfig, $1)) AS words
       FROM unnest($2::text[]) AS c, websearch_to_tsquery(c::regconfig, $1) AS w`,
      collapseNegations(rewriteCjkQuery(q)),
      [...configs],
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
  const byQuery = new Map<string, { configs: string[]; words: Set<string>; indexable: string }>();
  for (const row of findable) {
    const group = byQuery.get(row.query) ?? { configs: [], words: new Set<string>(), indexable: row.indexable };
    group.configs.push(row.config);
    for (const word of row.words) group.words.add(word);
    byQuery.set(row.query, group);
  }
  return [...byQuery].map(([query, group]) => ({ query, ...group }));
}

/**
 * The query's readings as the statement's match condition on passages "p" (each reading's tsquery a
 * parameter, from $1), and the plan chosen for it; null when the query has nothing to find.
 */
async function prepare(scope: SearchScope, query: SearchQuery, forced: Partial<SearchPlan>) {
  const db = await getDb();
  const configs = query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS;
  const [groups, facts, corrects] = await Promise.all([
    readings(db, query.q, configs),
    scope.kind === "public" ? planFacts(db) : null,
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
  ]);
  if (groups.length === 0) return null;
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // Configuration names are fixed (SEARCH_CONFIGS), safe to write into the statement; the queries are parameters.
  const branches = groups.map((g) => ({
    configs: g.configs.map((c) => `'${c}'`).join(", "),
    query: `${param(g.query)}::tsquery`,
  }));
  const matches = branches.map((b) => `(p."config" IN (${b.configs}) AND p."tsv" @@ ${b.query})`).join(" OR ");
  const plan = facts
    ? await choosePlan(db, query, { groups, facts, matches, params: [...params] }, forced)
    : { inOrder: false };
  // What an entry's lexemes must hold for one of its passages to match: any reading, its lexemes after the
  // caller's key, without its phrases.
  const lexemes =
    scope.kind === "library"
      ? entryQuery([...new Set(groups.map((g) => `(${g.indexable})`))].join(" | "), libraryKey(scope.userId))
      : null;
  return { db, branches, matches, params, param, plan, lexemes, corrects };
}

/** The key before each of a user's entries' lexemes: verbatim_library_key (migration library_lexemes). */
const libraryKey = (userId: string) => createHash("sha256").update(userId, "utf8").digest("hex").slice(0, 8);

/** Whether the user has saved a correction of any transcript (lib/edits). */
async function hasCorrections(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.$queryRawUnsafe<{ any: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = $1) AS any`,
    userId,
  );
  return row?.any ?? false;
}

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
  const {
    db,
    branches,
    matches,
    params,
    param,
    plan: { inOrder },
    lexemes,
    corrects,
  } = prepared;
  const queryOf = (alias: string) =>
    `CASE ${branches.map((b) => `WHEN ${alias}."config" IN (${b.configs}) THEN ${b.query}`).join(" ")} END`;
  const user = scope.kind === "library" ? param(scope.userId) : null;
  // Passages are read through the view "SearchPassage" (migration revision_search): the transcripts' own
  // (editorId NULL) and each user's current correction's (lib/edits). A user's correction replaces the
  // transcript's passages for that user alone: in their library, and where they published it.
  const hasRevision = (who: string) =>
    `EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${who} AND r."transcriptId" = p."transcriptId")`;
  const filters: string[] = [];
  if (query.platform) filters.push(`t."platform" = ${param(query.platform)}`);
  if (query.lang) filters.push(`lower(t."lang") = lower(${param(query.lang)})`);
  const filterJoin =
    filters.length > 0 ? `JOIN "Transcript" t ON t."id" = p."transcriptId" AND ${filters.join(" AND ")}` : "";
  // The matching passages the caller may see, in the order they are found; `OFFSET 0` keeps the library's
  // passages a lookup per entry (by "TranscriptPassage"'s key), found in the order of the entries' index.
  // The caller's key in the lexemes finds their entries alone (`|| ''` keeps the indexes on "userId" out of the
  // plan: ANDed in, they would add a bitmap of every entry of the caller, 8 ms for 100,000; the planner cannot
  // know how narrow a key makes a word). A caller who has corrected nothing reads the transcripts' passages
  // alone: no look for a correction per entry.
  const found =
    user !== null
      ? `FROM "Transcription" h CROSS JOIN LATERAL (
           ${
             corrects
               ? `SELECT p.* FROM "SearchPassage" p ${filterJoin}
                  WHERE p."transcriptId" = h."transcriptId" AND (${matches})
                    AND (CASE WHEN p."editorId" IS NULL THEN NOT ${hasRevision(user)} ELSE p."editorId" = ${user} END)`
               : `SELECT p.*, NULL::text AS "editorId", NULL::text AS "revisionId" FROM "TranscriptPassage" p ${filterJoin}
                  WHERE p."transcriptId" = h."transcriptId" AND (${matches})`
           }
           OFFSET 0
         ) AS p
         WHERE h."lexemes" @@ ${param(lexemes)}::tsquery AND (h."userId" || '') = ${user} AND h."state" = 'done'`
      : `FROM "SearchPassage" p ${filterJoin}
         WHERE (${matches}) AND EXISTS (SELECT 1 FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (CASE WHEN p."editorId" IS NULL THEN NOT ${hasRevision('pub."userId"')} ELSE pub."userId" = p."editorId" END)${inOrder ? " OFFSET 0" : ""})`;
  // The page's public page: a live publication of the transcript (the caller's own in the library).
  const slug =
    user !== null
      ? `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."userId" = ${user} AND pub."publishedAt" IS NOT NULL LIMIT 1)`
      : `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (page."editorId" IS NULL OR pub."userId" = page."editorId") ORDER BY pub."publishedAt", pub."id" LIMIT 1)`;
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  const limit = param(query.limit + 1);
  const skip = param(offset);
  const perTranscript = param(MOMENTS_PER_TRANSCRIPT);
  const headline = param(HEADLINE_OPTIONS);
  const candidates = param(SEARCH_MAX_CANDIDATES);

  const sql = `
    WITH hits AS (
      SELECT p."transcriptId", p."seq", p."editorId", p."revisionId", p."segFrom", p."segTo", p."start", p."end",
             p."config", ts_rank_cd(p."tsv", ${queryOf("p")}) AS rank
      ${found}
      LIMIT ${candidates}
    ), capped AS (
      -- DISTINCT: two entries of one user may hold the same transcript (languages asked for apart).
      SELECT *, row_number() OVER (PARTITION BY "transcriptId", "revisionId" ORDER BY rank DESC, "seq") AS nth
      FROM (SELECT DISTINCT * FROM hits) AS hits
    ), page AS (
      SELECT * FROM capped WHERE nth <= ${perTranscript}
      ORDER BY rank DESC, "transcriptId", "seq", "revisionId" LIMIT ${limit} OFFSET ${skip}
    )
    SELECT page."transcriptId", page."seq", page.rank::float8 AS rank,
           t."title", t."platform", t."videoId", t."lang", t."sourceUrl",
           page."segFrom", seg.texts, seg.starts, seg.ends, page."start", page."end",
           ts_headline(page."config"::regconfig, array_to_string(seg.texts, ' '), ${queryOf("page")}, ${headline}) AS marked,
           ${slug} AS slug
    -- The page's passages as found (joining "SearchPassage" again by key read every correction's passages per
    -- row: its second half is a join, which PostgreSQL cannot look up by a key from outside).
    FROM page
    JOIN "Transcript" t ON t."id" = page."transcriptId"
    LEFT JOIN "TranscriptRevision" rev ON rev."id" = page."revisionId"
    -- The passage's segments, read from the transcript (or the correction) as the index read them (verbatim_segments).
    CROSS JOIN LATERAL (
      SELECT array_agg(s.text ORDER BY s.idx) AS texts, array_agg(s.start_s ORDER BY s.idx) AS starts, array_agg(s.end_s ORDER BY s.idx) AS ends
      FROM verbatim_segments(coalesce(rev."segments", t."segments")) AS s WHERE s.idx BETWEEN page."segFrom" AND page."segTo"
    ) AS seg
    ORDER BY page.rank DESC, page."transcriptId", page."seq", page."revisionId"`;
  try {
    const timeoutMs = env().SEARCH_TIMEOUT_MS;
    return await db.$transaction(
      async (tx) => {
        // Serial: the candidates are the first SEARCH_MAX_CANDIDATES visible matches in the order the plan reads
        // them; parallel workers (chosen since the view "SearchPassage" is a UNION ALL: Parallel Append) hand
        // them over in no fixed order, so two pages could rank different candidates, and starting the workers
        // cost about what the bounded work they share saves (issue 44b). No JIT: the planner's estimate of all the
        // matches of a frequent word passes jit_above_cost, while the statement stops at the bound; compiling
        // took 56 of its 96 ms at a million (issue 44b).
        // In order: no bitmap (the word index can only give one), and no synchronized scan (scansInOrder).
        await tx.$queryRawUnsafe(
          `SELECT set_config('statement_timeout', $1, true), set_config('max_parallel_workers_per_gather', '0', true),
                  set_config('jit', 'off', true), set_config('synchronize_seqscans', 'off', true),
                  set_config('enable_bitmapscan', $2, true)`,
          String(timeoutMs),
          inOrder ? "off" : "on",
        );
        return tx.$queryRawUnsafe<MomentRow[]>(sql, ...params);
      },
      // Prisma's own limits (2 s to get a connection, 5 s in all) are not the search's: the statement's is.
      { maxWait: 10_000, timeout: timeoutMs + 5_000 },
    );
  } catch (error) {
    // 57014 query_canceled: the statement ran past SEARCH_TIMEOUT_MS.
    if (sqlState(error) === "57014")
      throw refuseQuery(query.q, "this search takes too long; use more specific words or a phrase");
    throw error;
  }
}
