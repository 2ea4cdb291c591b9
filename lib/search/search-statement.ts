// The one search statement behind GET /v1/me/search, GET /v1/public/search and MCP's search_transcripts, as
// text and parameters: built here from what find-moments.ts has read and chosen, run by runSearchStatement
// (queries.ts) under searchPlannerSettings (planner-settings.ts). Passages (prisma/sql/functions/
// verbatim_index_transcript.sql) match when their tsvector matches the query as parsed by their own
// configuration; for each configuration the query is parsed once (the functions are immutable, so the planner
// folds them) and each branch of the OR can use the GIN index. At most `candidates` matches are ranked. Public
// search finds them as search-plan.ts chooses; the library search starts from the caller's done entries whose
// words ("lexemes", prisma/sql/functions/verbatim_entry_lexemes.sql, after the caller's key) hold the query
// without its phrases and exclusions, then matches their passages.
import { completeEntriesSql } from "@/lib/transcripts/history-queries";

/** Who may see a transcript: the caller's complete history entries, or a live publication. */
export type SearchScope = { kind: "library"; userId: string } | { kind: "public" };

/** One way the query reads: its tsquery under the configurations that read it so. */
export interface SearchReading {
  query: string;
  configs: readonly string[];
}

/** A statement's text ($1, $2, … placeholders) and its parameters. */
export interface SqlStatement {
  text: string;
  params: unknown[];
}

/** Marks around matched words in ts_headline's answer: private-use characters, removed from stored texts. */
export const MARK_START = "\ue000";
export const MARK_END = "\ue001";
const HEADLINE_OPTIONS = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;

/**
 * The readings as a match condition on passages "p" (each reading's tsquery a parameter, from $1), with
 * `param`, which adds a further parameter and answers its placeholder.
 */
export function matchCondition(readings: readonly SearchReading[]) {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // Configuration names are fixed (SEARCH_CONFIGS), safe to write into the statement; the queries are parameters.
  const branches = readings.map((g) => ({
    configs: g.configs.map((c) => `'${c}'`).join(", "),
    query: `${param(g.query)}::tsquery`,
  }));
  const matches = branches.map((b) => `(p."config" IN (${b.configs}) AND p."tsv" @@ ${b.query})`).join(" OR ");
  return { branches, matches, params, param };
}

export interface SearchStatementInput {
  scope: SearchScope;
  /** The query's readings that have something to find (at least one). */
  readings: readonly SearchReading[];
  platform?: string | null;
  lang?: string | null;
  /** Rows to answer: the page's size and one more, to know there is a next page. */
  limit: number;
  offset: number;
  /** At most this many moments of one transcript. */
  perTranscript: number;
  /** At most this many matches are ranked. */
  candidates: number;
  /** Public search: the candidates are read in table order (search-plan.ts's scansInOrder). */
  inOrder: boolean;
  /** Library search: the tsquery the caller's entries' lexemes must hold (entryQuery). */
  lexemes: string | null;
  /** Library search: the caller has saved a correction of some transcript. */
  corrects: boolean;
}

/** One page of moments, best first: the rows of MomentRow (find-moments.ts). */
export function searchStatement(input: SearchStatementInput): SqlStatement {
  const { scope, inOrder, lexemes, corrects } = input;
  const { branches, matches, params, param } = matchCondition(input.readings);
  const queryOf = (alias: string) =>
    `CASE ${branches.map((b) => `WHEN ${alias}."config" IN (${b.configs}) THEN ${b.query}`).join(" ")} END`;
  const user = scope.kind === "library" ? param(scope.userId) : null;
  // Passages are read through the view "SearchPassage" (prisma/sql/views): the transcripts' own (editorId
  // NULL) and each user's current correction's (lib/edits). A user's correction replaces the transcript's
  // passages for that user alone: in their library, and where they published it.
  const hasRevision = (who: string) =>
    `EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${who} AND r."transcriptId" = p."transcriptId")`;
  const filters: string[] = [];
  if (input.platform) filters.push(`t."platform" = ${param(input.platform)}`);
  if (input.lang) filters.push(`lower(t."lang") = lower(${param(input.lang)})`);
  const filterJoin =
    filters.length > 0 ? `JOIN "Transcript" t ON t."id" = p."transcriptId" AND ${filters.join(" AND ")}` : "";
  // The matching passages the caller may see, in the order they are found; `OFFSET 0` keeps the library's
  // passages a lookup per entry (by "TranscriptPassage"'s key), found in the order of the entries' index
  // (completeEntriesSql). A caller who has corrected nothing reads the transcripts' passages alone: no look for a
  // correction per entry.
  const found =
    user !== null
      ? completeEntriesSql(
          corrects
            ? `SELECT p.* FROM "SearchPassage" p ${filterJoin}
                  WHERE p."transcriptId" = h."transcriptId" AND (${matches})
                    AND (CASE WHEN p."editorId" IS NULL THEN NOT ${hasRevision(user)} ELSE p."editorId" = ${user} END)`
            : `SELECT p.*, NULL::text AS "editorId", NULL::text AS "revisionId" FROM "TranscriptPassage" p ${filterJoin}
                  WHERE p."transcriptId" = h."transcriptId" AND (${matches})`,
          param(lexemes),
          user,
        )
      : `FROM "SearchPassage" p ${filterJoin}
         WHERE (${matches}) AND EXISTS (SELECT 1 FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (CASE WHEN p."editorId" IS NULL THEN NOT ${hasRevision('pub."userId"')} ELSE pub."userId" = p."editorId" END)${inOrder ? " OFFSET 0" : ""})`;
  // The page's public page: a live publication of the transcript (the caller's own in the library).
  const slug =
    user !== null
      ? `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."userId" = ${user} AND pub."publishedAt" IS NOT NULL LIMIT 1)`
      : `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (page."editorId" IS NULL OR pub."userId" = page."editorId") ORDER BY pub."publishedAt", pub."id" LIMIT 1)`;
  const limit = param(input.limit);
  const skip = param(input.offset);
  const perTranscript = param(input.perTranscript);
  const headline = param(HEADLINE_OPTIONS);
  const candidates = param(input.candidates);

  const text = `
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
  return { text, params };
}
