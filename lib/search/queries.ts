import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { transactionLimits } from "@/lib/search/deadline";
import { settingsStatement, type SearchPlannerSettings } from "@/lib/search/planner-settings";
import type { SearchScope, SqlStatement } from "@/lib/search/search-statement";

// Every statement search sends besides what Prisma's models do: the query's readings, what the plan and the
// scores are made of (search-plan.ts: the terms' ids and counts, the passages, the scope's size), and the search
// statement itself (search-statement.ts), run under its planner settings.

/**
 * The query as each configuration reads it, with what the index can look up; `begun`, a word being typed, is
 * read as its lexeme's prefix (`'laun':*`) and added to the query.
 */
export function readingsOf(db: Db, text: string, configs: readonly string[], begun: string | null = null) {
  const read =
    begun === null ? Prisma.empty : Prisma.sql` && to_tsquery(c::regconfig, quote_literal(${begun}::text) || ':*')`;
  return db.$queryRaw<{ config: string; query: string; indexable: string }[]>`
    SELECT c AS config, w::text AS query, querytree(w) AS indexable
      FROM unnest(${[...configs]}::text[]) AS c,
      LATERAL (SELECT websearch_to_tsquery(c::regconfig, ${text})${read} AS w) AS r`;
}

/** Whether the user has saved a correction of any transcript (lib/edits). */
export async function hasCorrections(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${userId}) AS any`;
  return row?.any ?? false;
}

/** The query's positive terms with their ids in the vocabulary (null where no passage holds it). */
export function termIds(db: Db, terms: readonly string[]) {
  return db.$queryRaw<{ term: string; id: number | null }[]>`
    SELECT q."term", st."id" FROM unnest(${[...terms]}::text[]) AS q("term") LEFT JOIN "SearchTerm" st ON st."term" = q."term"`;
}

/**
 * The postings of the terms `ids` as the database's statistics of "SearchPosting" estimate them (ANALYZE: PostgreSQL's
 * autovacuum, the embedded database's hourly sweep): the sum over the terms among its most common values of their
 * frequency times the table's rows. Only the most common terms are counted, so it is at most about the true sum;
 * 0 where the table has not been analysed. A look at the catalog, not at the postings.
 */
export async function commonPostingsEstimate(db: Db, ids: readonly number[]): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | null }[]>`
    SELECT (sum(f.freq) * greatest(max(c.reltuples), 0))::float8 AS n
    FROM pg_stats s
    CROSS JOIN LATERAL unnest(s.most_common_vals::text::int[], s.most_common_freqs) AS f(val, freq)
    JOIN pg_namespace ns ON ns.nspname = s.schemaname
    JOIN pg_class c ON c.relnamespace = ns.oid AND c.relname = s.tablename
    WHERE s.schemaname = current_schema() AND s.tablename = 'SearchPosting' AND s.attname = 'termId'
      AND f.val = ANY(${[...ids]}::int[])`;
  return row?.n ?? 0;
}

/**
 * How many postings the terms `ids` have together, whoever holds them, counted up to `bound` + 1: a term's list read
 * only as far as the sum still fits (at most bound + 1 entries of the index read in all, however many terms).
 */
export async function postingsUpTo(db: Db, ids: readonly number[], bound: number): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    WITH RECURSIVE t AS (SELECT id, nth FROM unnest(${[...ids]}::int[]) WITH ORDINALITY AS t(id, nth)),
    summed(nth, n) AS (
      SELECT 0::bigint, 0::bigint
      UNION ALL
      SELECT s.nth + 1, s.n + (SELECT count(*) FROM (SELECT 1 FROM "SearchPosting" sp
                               WHERE sp."termId" = (SELECT t.id FROM t WHERE t.nth = s.nth + 1)
                               LIMIT ${bound}::bigint + 1 - s.n) AS x)
      FROM summed s WHERE s.nth < ${ids.length}::bigint AND s.n <= ${bound}::bigint)
    SELECT max(n)::int AS n FROM summed`;
  return row?.n ?? 0;
}

/**
 * The passages of the scope (the user's done entries' transcripts, or the published ones, or a show's),
 * counted up to `bound`: a scope of more is searched by its postings, a smaller one read whole.
 */
export async function scopePassages(db: Db, scope: SearchScope, bound: number): Promise<number> {
  const [row] =
    scope.kind === "library"
      ? await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM "Transcription" h JOIN "TranscriptPassage" p ON p."transcriptId" = h."transcriptId"
            WHERE h."userId" = ${scope.userId} AND h."state" = 'done' LIMIT ${bound}) AS x`
      : await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM "Publication" pub JOIN "TranscriptPassage" p ON p."transcriptId" = pub."transcriptId"
            WHERE pub."publishedAt" IS NOT NULL
              AND (${scope.show ?? null}::text IS NULL OR EXISTS (SELECT 1 FROM "Follow" f JOIN "FollowItem" i ON i."followId" = f."id"
                WHERE f."showSlug" = ${scope.show ?? null} AND f."userId" = pub."userId" AND i."status" = 'done' AND i."transcriptId" = pub."transcriptId"))
            LIMIT ${bound}) AS x`;
  return row?.n ?? 0;
}

/** Runs a statement built in pieces (search-statement.ts, meaning.ts, visible-terms.ts). */
export function runStatement<Row>(db: Pick<Db, "$queryRaw">, statement: SqlStatement): Promise<Row[]> {
  return db.$queryRaw<Row[]>(statement);
}

/** Runs `statement` in a transaction of its own under `settings`. */
export function runSearchStatement<Row>(db: Db, statement: SqlStatement, settings: SearchPlannerSettings) {
  return db.$transaction(
    async (tx) => {
      await tx.$queryRaw(settingsStatement(settings));
      return runStatement<Row>(tx, statement);
    },
    // Prisma's own limits (2 s to get a connection, 5 s in all) are not the search's: the statement's is.
    transactionLimits(Number(settings.statement_timeout)),
  );
}
