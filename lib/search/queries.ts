import type { Db } from "@/lib/db/client";
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
  return db.$queryRawUnsafe<{ config: string; query: string; indexable: string }[]>(
    `SELECT c AS config, w::text AS query, querytree(w) AS indexable
       FROM unnest($2::text[]) AS c,
       LATERAL (SELECT CASE WHEN $3::text IS NULL THEN websearch_to_tsquery(c::regconfig, $1)
                            ELSE websearch_to_tsquery(c::regconfig, $1) && to_tsquery(c::regconfig, quote_literal($3::text) || ':*') END AS w) AS r`,
    text,
    [...configs],
    begun,
  );
}

/** Whether the user has saved a correction of any transcript (lib/edits). */
export async function hasCorrections(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.$queryRawUnsafe<{ any: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = $1) AS any`,
    userId,
  );
  return row?.any ?? false;
}

/**
 * The query's positive terms as the postings know them: each one's id (null where no passage holds it) and how
 * many passages hold it, counted from its postings up to `bound`; a term of `frequent` is not counted (its df is
 * `bound`: at least that many).
 */
export function termFacts(db: Db, terms: readonly string[], bound: number, frequent: readonly string[] = []) {
  return db.$queryRawUnsafe<{ term: string; id: number | null; df: number }[]>(
    `SELECT q."term", st."id",
            CASE WHEN q."term" = ANY ($3::text[]) AND st."id" IS NOT NULL THEN $2::int
                 ELSE (SELECT count(*) FROM (SELECT 1 FROM "SearchPosting" sp WHERE sp."termId" = st."id" LIMIT $2::int) AS c)::int
            END AS df
       FROM unnest($1::text[]) AS q("term") LEFT JOIN "SearchTerm" st ON st."term" = q."term"`,
    [...terms],
    bound,
    [...frequent],
  );
}

/**
 * How many passages there are (N of idf): PostgreSQL's estimate (pg_class.reltuples) where it is at least
 * `bound`, otherwise counted up to `bound`, so that a small database scores the same on every call.
 */
export async function passageCount(db: Db, bound: number): Promise<number> {
  const counted = (table: string) =>
    `CASE WHEN (SELECT c.reltuples FROM pg_class c WHERE c.oid = '"${table}"'::regclass) >= ${bound}
          THEN (SELECT c.reltuples FROM pg_class c WHERE c.oid = '"${table}"'::regclass)::float8
          ELSE (SELECT count(*) FROM (SELECT 1 FROM "${table}" LIMIT ${bound}) AS x)::float8 END`;
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT ${counted("TranscriptPassage")} + ${counted("RevisionPassage")} AS n`,
  );
  return row?.n ?? 0;
}

/**
 * The passages of the scope (the user's done entries' transcripts, or the published ones, or a show's),
 * counted up to `bound`: a scope of more is searched by its postings, a smaller one read whole.
 */
export async function scopePassages(db: Db, scope: SearchScope, bound: number): Promise<number> {
  const [row] =
    scope.kind === "library"
      ? await db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM "Transcription" h JOIN "TranscriptPassage" p ON p."transcriptId" = h."transcriptId"
             WHERE h."userId" = $1 AND h."state" = 'done' LIMIT $2) AS x`,
          scope.userId,
          bound,
        )
      : await db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM "Publication" pub JOIN "TranscriptPassage" p ON p."transcriptId" = pub."transcriptId"
             WHERE pub."publishedAt" IS NOT NULL
               AND ($1::text IS NULL OR EXISTS (SELECT 1 FROM "Follow" f JOIN "FollowItem" i ON i."followId" = f."id"
                 WHERE f."showSlug" = $1 AND f."userId" = pub."userId" AND i."status" = 'done' AND i."transcriptId" = pub."transcriptId"))
             LIMIT $2) AS x`,
          scope.show ?? null,
          bound,
        );
  return row?.n ?? 0;
}

/** ANALYZE's most common words of the passages' index (pg_stats.most_common_elems of "TranscriptPassage"."tsv"), each with its share of passages. */
export async function commonWordStatistics(db: Db): Promise<Map<string, number>> {
  const [row] = await db.$queryRawUnsafe<{ words: string[] | null; shares: number[] | null }[]>(
    `SELECT s.most_common_elems::text::text[] AS words, s.most_common_elem_freqs::float8[] AS shares FROM pg_stats s
       WHERE s.schemaname = current_schema() AND s.tablename = 'TranscriptPassage' AND s.attname = 'tsv'`,
  );
  return new Map((row?.words ?? []).map((word, i) => [word, row!.shares![i]!] as const));
}

/** Runs `statement` in a transaction of its own under `settings`. */
export function runSearchStatement<Row>(db: Db, statement: SqlStatement, settings: SearchPlannerSettings) {
  const setup = settingsStatement(settings);
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(setup.text, ...setup.params);
      return tx.$queryRawUnsafe<Row[]>(statement.text, ...statement.params);
    },
    // Prisma's own limits (2 s to get a connection, 5 s in all) are not the search's: the statement's is.
    { maxWait: 10_000, timeout: Number(settings.statement_timeout) + 5_000 },
  );
}
