// The one search statement behind GET /v1/me/search, GET /v1/public/search and MCP's search_transcripts, as a
// tagged statement (Prisma.sql): built here from what find-moments.ts has read and chosen (search-plan.ts), run by
// runSearchStatement (queries.ts) under searchPlannerSettings (planner-settings.ts). A passage matches when its
// tsvector matches the query as parsed by its own configuration (one branch per distinct reading; the
// configurations' names are written in, from the closed list SEARCH_CONFIGS, the queries are parameters). Its score
// is BM25's: the sum, over its reading's positive terms it holds, of the term's idf (passed in) times its impact in
// the passage (its posting, prisma/sql/functions/verbatim_search_impact.sql), plus a bounded proximity part for a
// reading of two or more terms; ties go to the newer passage (the higher pid). The candidates are found as the plan
// says: the terms' postings in impact order, the scope's passages, or every match (rankAllMatches).
import { Prisma } from "@/lib/generated/prisma/client";
import { SEARCH_CONFIGS } from "@/lib/search/config";
import { PROXIMITY_WEIGHT, type SearchPlan } from "@/lib/search/search-plan";

const { sql, join, raw, empty } = Prisma;

/**
 * Who may see a transcript: the caller's complete history entries, or a live publication (of one followed
 * show's published episodes, `show` its page's slug).
 */
export type SearchScope = { kind: "library"; userId: string } | { kind: "public"; show?: string | null };

/** One way the query reads: its tsquery under the configurations that read it so. */
export interface SearchReading {
  query: string;
  configs: readonly string[];
}

/** A positive term as scored: its id, its idf, the reading whose passages it scores. */
export interface ScoredTerm {
  id: number;
  idf: number;
  reading: number;
}

/** A statement and its parameters, as Prisma's tagged template makes it (`text` with $1, $2, …, and `values`). */
export type SqlStatement = Prisma.Sql;

/** Marks around matched words in ts_headline's answer: private-use characters, removed from stored texts. */
export const MARK_START = "\ue000";
export const MARK_END = "\ue001";
const HEADLINE_OPTIONS = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;

/**
 * Configuration names written into a statement (Prisma.raw): only those of the closed list SEARCH_CONFIGS, so that
 * the planner sees each branch's configurations as constants.
 */
const configList = (configs: readonly string[]) =>
  raw(
    configs
      .map((c) => {
        if (!SEARCH_CONFIGS.includes(c)) throw new Error(`not a search configuration: ${c}`);
        return `'${c}'`;
      })
      .join(", "),
  );

/** The readings as a match condition on passages "p", each reading's tsquery a parameter. */
export function matchCondition(readings: readonly SearchReading[]) {
  const branches = readings.map((g) => ({ configs: configList(g.configs), query: sql`${g.query}::tsquery` }));
  const matches = join(
    branches.map((b) => sql`(p."config" IN (${b.configs}) AND p."tsv" @@ ${b.query})`),
    " OR ",
  );
  return { branches, matches };
}

export interface SearchStatementInput {
  scope: SearchScope;
  /** The query's readings that have something to find (at least one). */
  readings: readonly SearchReading[];
  /** The readings' positive terms that some passage holds, each with its idf. */
  terms: readonly ScoredTerm[];
  /** How many distinct positive terms each reading has (proximity counts for two or more). */
  readingTerms: readonly number[];
  plan: SearchPlan;
  platform?: string | null;
  lang?: string | null;
  /** Only this transcript's passages (an alert's check of one new transcript, lib/alerts). */
  transcriptId?: string | null;
  /** Rows to answer: the page's size and one more, to know there is a next page. */
  limit: number;
  offset: number;
  /** At most this many moments of one transcript. */
  perTranscript: number;
  /** Library search: the caller has saved a correction of some transcript. */
  corrects: boolean;
}

/** The passages' columns as the view "SearchPassage" has them, from "TranscriptPassage" alone. */
export const TRANSCRIPT_PASSAGES = sql`(SELECT tp."transcriptId", tp."seq", tp."segFrom", tp."segTo", tp."start", tp."end", tp."config", tp."tsv",
     NULL::text AS "editorId", NULL::text AS "revisionId", tp."pid" FROM "TranscriptPassage" tp)`;

/**
 * One page of moments, best first: the rows of MomentRow (find-moments.ts), and with each, `found`, how many
 * candidates were found (a row with no moment when the page is empty).
 */
export function searchStatement(input: SearchStatementInput): SqlStatement {
  const { scope, plan, corrects, readings } = input;
  const { branches, matches } = matchCondition(readings);
  const queryOf = (alias: Prisma.Sql) =>
    sql`CASE ${join(
      branches.map((b) => sql`WHEN ${alias}."config" IN (${b.configs}) THEN ${b.query}`),
      " ",
    )} END`;
  const user = scope.kind === "library" ? sql`${scope.userId}` : null;
  const show = scope.kind === "public" && scope.show ? sql`${scope.show}` : null;
  // Passages are read through the view "SearchPassage" (prisma/sql/views): the transcripts' own (editorId
  // NULL) and each user's current correction's (lib/edits). A user's correction replaces the transcript's
  // passages for that user alone: in their library, and where they published it. A caller who has corrected
  // nothing reads the transcripts' passages alone.
  const source = user !== null && !corrects ? TRANSCRIPT_PASSAGES : sql`"SearchPassage"`;
  const { visible, ownVersion, published, ofShow } = passageVisibility({ user, show, corrects });
  const filters: Prisma.Sql[] = [];
  if (input.platform) filters.push(sql`t."platform" = ${input.platform}`);
  if (input.lang) filters.push(sql`lower(t."lang") = lower(${input.lang})`);
  const filtered = sql`${input.transcriptId ? sql` AND p."transcriptId" = ${input.transcriptId}` : empty}${
    filters.length > 0
      ? sql` AND EXISTS (SELECT 1 FROM "Transcript" t WHERE t."id" = p."transcriptId" AND ${join(filters, " AND ")})`
      : empty
  }`;

  let found: Prisma.Sql;
  if (plan.driver === "all") {
    found = sql`SELECT p.* FROM ${source} p WHERE (${matches}) AND ${visible}${filtered}${plan.bound === undefined ? empty : sql` LIMIT ${plan.bound + 1}`}`;
  } else if (plan.driver === "scope") {
    // The scope's transcripts, each one's passages looked up by its key (OFFSET 0 keeps it a lookup per transcript).
    found = sql`SELECT p.* FROM (${scopeTranscripts(user, ofShow)}) s CROSS JOIN LATERAL (
        SELECT p.* FROM ${source} p WHERE p."transcriptId" = s."transcriptId" AND (${matches})
          AND ${user !== null ? ownVersion : published}${filtered} OFFSET 0) p`;
  } else if (plan.lists.length === 0) {
    // No passage holds any of the query's terms.
    found = sql`SELECT p.* FROM ${source} p WHERE false`;
  } else {
    // Each list: the term's postings best first, each passage looked up by its id (OFFSET 0: a lookup per
    // posting, never a join with every match of the query), kept when it is of the list's readings, matches and
    // is visible, up to `keep` of them.
    found = join(
      plan.lists.map((list) => {
        const configs = configList([...new Set(list.readings.flatMap((r) => readings[r]!.configs))]);
        return sql`(SELECT p.* FROM (
            SELECT sp."pid", sp."impact" FROM "SearchPosting" sp WHERE sp."termId" = ${list.termId}
            ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${list.examine}) c
          CROSS JOIN LATERAL (SELECT p.* FROM ${source} p WHERE p."pid" = c."pid" OFFSET 0) p
          WHERE p."config" IN (${configs}) AND (${matches}) AND ${visible}${filtered}
          ORDER BY c."impact" DESC, c."pid" DESC LIMIT ${list.keep})`;
      }),
      " UNION ALL ",
    );
  }

  // The score: the passage's own postings (one range of the index's key) weighed by its reading's terms' idf,
  // found by key (reading × 2³² + term id) in the query's terms; the passage's reading is computed once. A
  // reading's number is its place in the list (written in: an integer).
  const readingOf = (alias: Prisma.Sql) =>
    sql`CASE ${join(
      branches.map((b, i) => sql`WHEN ${alias}."config" IN (${b.configs}) THEN ${raw(String(i))}`),
      " ",
    )} END`;
  const termKeys = input.terms.map((t) => t.reading * 2 ** 32 + t.id);
  const idfs = input.terms.map((t) => t.idf);
  const near = branches.filter((_, i) => (input.readingTerms[i] ?? 0) >= 2);
  // PROXIMITY_WEIGHT is a constant of search-plan.ts, written in.
  const proximity =
    near.length > 0
      ? sql` + CASE ${join(
          near.map(
            (b) =>
              sql`WHEN f."config" IN (${b.configs}) THEN ${raw(String(PROXIMITY_WEIGHT))}::float8 * ts_rank_cd(f."tsv", ${b.query}, 32)::float8`,
          ),
          " ",
        )} ELSE 0 END`
      : empty;
  const score = sql`(SELECT coalesce(sum((${idfs}::float8[])[array_position(${termKeys}::bigint[], f."reading"::bigint * 4294967296 + sp."termId")] * sp."impact"), 0)
        FROM "SearchPosting" sp WHERE sp."pid" = f."pid")${proximity}`;
  // The page's public page: a live publication of the transcript (the caller's own in the library).
  const slug =
    user !== null
      ? sql`(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."userId" = ${user} AND pub."publishedAt" IS NOT NULL LIMIT 1)`
      : sql`(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = page."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (page."editorId" IS NULL OR pub."userId" = page."editorId") ORDER BY pub."publishedAt", pub."id" LIMIT 1)`;
  const prefix = plan.driver === "postings" && plan.exact ? sql` LIMIT ${plan.prefix}` : empty;

  return sql`
    WITH found AS MATERIALIZED (
      ${found}
    ), ranked AS (
      SELECT f.*, (${score})::float8 AS rank FROM (SELECT DISTINCT ON ("pid") *, ${readingOf(sql`found`)} AS "reading" FROM found) AS f
      ORDER BY rank DESC, f."pid" DESC${prefix}
    ), beside AS (
      SELECT *, lag("seq") OVER w AS "prevSeq", lag(rank) OVER w AS "prevRank", lag("pid") OVER w AS "prevPid",
             lead("seq") OVER w AS "nextSeq", lead(rank) OVER w AS "nextRank", lead("pid") OVER w AS "nextPid"
      FROM ranked WINDOW w AS (PARTITION BY "transcriptId", "revisionId" ORDER BY "seq")
    ), capped AS (
      -- A transcript's moments are its best passages, those beside a better one of it last: that one is the same
      -- spot, so another place where it is said comes first.
      SELECT *, row_number() OVER (PARTITION BY "transcriptId", "revisionId" ORDER BY
               coalesce("prevSeq" = "seq" - 1 AND ("prevRank", "prevPid") > (rank, "pid"), false)
            OR coalesce("nextSeq" = "seq" + 1 AND ("nextRank", "nextPid") > (rank, "pid"), false),
             rank DESC, "pid" DESC) AS nth
      FROM beside
    ), page AS (
      SELECT * FROM capped WHERE nth <= ${input.perTranscript}
      ORDER BY rank DESC, "pid" DESC LIMIT ${input.limit} OFFSET ${input.offset}
    )
    SELECT m.*, st.found FROM (SELECT count(*)::int AS found FROM found) AS st
    LEFT JOIN LATERAL (
      SELECT page."transcriptId", page."seq", page."pid", page.rank,
             t."title", t."platform", t."videoId", t."lang", t."sourceUrl",
             page."segFrom", seg.texts, seg.starts, seg.ends, page."start", page."end",
             ts_headline(page."config"::regconfig, seg.text, ${queryOf(sql`page`)}, ${HEADLINE_OPTIONS}) AS marked,
             ${slug} AS slug
      -- The page's passages as found (joining "SearchPassage" again by key read every correction's passages per
      -- row: its second half is a join, which PostgreSQL cannot look up by a key from outside).
      FROM page
      JOIN "Transcript" t ON t."id" = page."transcriptId"
      LEFT JOIN "TranscriptRevision" rev ON rev."id" = page."revisionId"
      -- The passage's segments and text, read from the transcript (or the correction) as the index read them.
      CROSS JOIN LATERAL verbatim_passage_segments(coalesce(rev."segments", t."segments"), page."segFrom", page."segTo") AS seg
    ) AS m ON true
    ORDER BY m.rank DESC, m."pid" DESC`;
}

/** The scope's transcripts ("transcriptId"): the caller's done entries', or the published ones (of a show's). */
function scopeTranscripts(user: Prisma.Sql | null, ofShow: Prisma.Sql): Prisma.Sql {
  return user !== null
    ? sql`SELECT DISTINCT h."transcriptId" FROM "Transcription" h WHERE h."userId" = ${user} AND h."state" = 'done' AND h."transcriptId" IS NOT NULL`
    : sql`SELECT DISTINCT pub."transcriptId" FROM "Publication" pub WHERE pub."publishedAt" IS NOT NULL${ofShow}`;
}

/**
 * Every passage "p" (of "SearchPassage", as the caller sees it) of the scope, read by its transcripts: what a small
 * scope's vocabulary and counts are read from (visible-terms.ts). `user`, `show`: as for passageVisibility.
 */
export function scopePassagesSql({
  user,
  show = null,
}: {
  user: Prisma.Sql | null;
  show?: Prisma.Sql | null;
}): Prisma.Sql {
  const { ownVersion, published, ofShow } = passageVisibility({ user, show });
  return sql`SELECT p.* FROM (${scopeTranscripts(user, ofShow)}) s CROSS JOIN LATERAL (
      SELECT p.* FROM "SearchPassage" p WHERE p."transcriptId" = s."transcriptId" AND ${user !== null ? ownVersion : published} OFFSET 0) p`;
}

/**
 * Whether the caller may see passage "p" (of "SearchPassage"), as SQL (`visible`): `user`, the caller's id (a
 * parameter, or a column) in a library search (their done entries; their own correction replaces the transcript's
 * passages for them, `corrects`: they have corrected something); otherwise a live publication, read as its
 * publisher sees it, of the show whose slug is `show` when given. The one place this rule is written (search, its
 * suggestions, meaning and alerts).
 */
export function passageVisibility({
  user,
  show = null,
  corrects = true,
}: {
  user: Prisma.Sql | null;
  show?: Prisma.Sql | null;
  corrects?: boolean;
}) {
  // A correction replaces the transcript's passages once search serves it (lib/edits/revision-index.ts).
  const hasRevision = (who: Prisma.Sql) =>
    sql`EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${who} AND r."transcriptId" = p."transcriptId" AND r."indexedAt" IS NOT NULL)`;
  const asSeenBy = (who: Prisma.Sql) =>
    sql`(CASE WHEN p."editorId" IS NULL THEN NOT ${hasRevision(who)} ELSE p."editorId" = ${who} END)`;
  const ownVersion = user === null ? empty : corrects ? asSeenBy(user) : sql`p."editorId" IS NULL`;
  // A show's published episodes: its follow's items done, published by the follow's owner (lib/publishing/show-page.ts).
  const ofShow =
    show === null
      ? empty
      : sql` AND EXISTS (SELECT 1 FROM "Follow" f JOIN "FollowItem" i ON i."followId" = f."id"
              WHERE f."showSlug" = ${show} AND f."userId" = pub."userId" AND i."status" = 'done' AND i."transcriptId" = pub."transcriptId")`;
  const published = sql`EXISTS (SELECT 1 FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL
             AND ${asSeenBy(sql`pub."userId"`)}${ofShow})`;
  const visible =
    user !== null
      ? sql`EXISTS (SELECT 1 FROM "Transcription" h WHERE h."transcriptId" = p."transcriptId" AND h."userId" = ${user} AND h."state" = 'done') AND ${ownVersion}`
      : published;
  // Its parts too: a scope read whole has found its transcripts already (the scope driver).
  return { visible, ownVersion, published, ofShow };
}
