import type { Db } from "@/lib/db/client";
import { settingsStatement, type SearchPlannerSettings } from "@/lib/search/planner-settings";
import type { SqlStatement } from "@/lib/search/search-statement";

// Every statement search sends besides what Prisma's models do: the query's readings, what the public
// search's plan is chosen by (search-plan.ts), and the search statement itself (search-statement.ts), run
// under its planner settings.

/** The query as each configuration reads it, with what the index can look up and the words as indexed. */
export function readingsOf(db: Db, text: string, configs: readonly string[]) {
  return db.$queryRawUnsafe<{ config: string; query: string; indexable: string; words: string[] }[]>(
    `SELECT c AS config, w::text AS query, querytree(w) AS indexable, tsvector_to_array(to_tsvector(c::regconfig, $1)) AS words
       FROM unnest($2::text[]) AS c, websearch_to_tsquery(c::regconfig, $1) AS w`,
    text,
    [...configs],
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

/** PostgreSQL's estimates of the tables' sizes (pg_class.reltuples: -1 before the first ANALYZE). */
export async function estimatedSizes(db: Db) {
  const estimate = (table: string) =>
    `coalesce((SELECT c.reltuples FROM pg_class c WHERE c.oid = '"${table}"'::regclass), -1)::float8`;
  const [row] = await db.$queryRawUnsafe<{ transcripts: number; passages: number; publications: number }[]>(
    `SELECT ${estimate("Transcript")} AS transcripts, ${estimate("TranscriptPassage")} AS passages,
            ${estimate("Publication")} AS publications`,
  );
  return row!;
}

/** PostgreSQL's estimate of the passages `matches` (a condition on passages "p" with `params`) matches. */
export async function estimatedMatches(db: Db, matches: string, params: unknown[]): Promise<number> {
  type Plan = [{ Plan: { "Plan Rows": number } }];
  const [row] = await db.$queryRawUnsafe<{ "QUERY PLAN": Plan | string }[]>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM "TranscriptPassage" p WHERE ${matches}`,
    ...params,
  );
  const plan = row?.["QUERY PLAN"];
  // node-postgres parses the json column; a driver that does not hands over its text.
  return (typeof plan === "string" ? (JSON.parse(plan) as Plan) : plan)?.[0].Plan["Plan Rows"] ?? 0;
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
