import { getDb, type Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { serializeTranscription } from "@/lib/transcripts/serializers";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

const SORT_COLUMNS = {
  created_at: "createdAt",
  duration_seconds: "durationSeconds",
  total_seconds: "totalSeconds",
} as const;

/**
 * `q` as a LIKE pattern of "searchText", which the triggers keep in lower case (migration
 * history_search_lowercase): lower() of the pattern there makes LIKE exactly what ILIKE would be (PostgreSQL's
 * ILIKE lowers both sides in a multibyte database) without lowering every candidate row. The pattern's own
 * % _ and \\ are taken literally.
 */
const substringPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The ids of one page and the exact `total`. Every statement reads the caller's rows only, by an index
 * with "userId" first (migrations flat_reads and flat_reads_indexes):
 * - with `q`: see pageIdsMatching;
 * - without: the page from the index of the sort (user, sort column, id: the ids of a deep offset are read
 *   from the index alone), the total from "HistoryCount" (entries per platform and state, kept by a trigger).
 */
async function pageIds(
  db: Db,
  userId: string,
  query: TranscriptionListQuery,
): Promise<{ ids: string[]; total: number }> {
  const order = Prisma.raw(
    `h."${SORT_COLUMNS[query.sort]}" ${query.order === "asc" ? "ASC" : "DESC"}, h."id" ${query.order === "asc" ? "ASC" : "DESC"}`,
  );
  // The caller's entries with the query's platform and state: on "Transcription" (h) or "HistoryCount" (c).
  const filtersOf = (alias: "h" | "c") => {
    const column = (name: string) => Prisma.raw(`${alias}."${name}"`);
    return Prisma.join(
      [
        Prisma.sql`${column("userId")} = ${userId}`,
        ...(query.platform ? [Prisma.sql`${column("platform")} = ${query.platform}`] : []),
        ...(query.state ? [Prisma.sql`${column("state")} = ${query.state}`] : []),
      ],
      " AND ",
    );
  };
  const filters = filtersOf("h");
  // The caller's entries with those filters, from the counts the trigger keeps (one row per platform and state).
  const entryCount = Prisma.sql`(SELECT coalesce(sum(c."n"), 0) FROM "HistoryCount" c WHERE ${filtersOf("c")})::int`;
  if (query.q) return pageIdsMatching(db, query.q, query, { filters, entryCount, order });
  const [rows, [counted]] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`
      SELECT h."id" FROM "Transcription" h WHERE ${filters}
      ORDER BY ${order} LIMIT ${query.limit} OFFSET ${query.offset}`,
    db.$queryRaw<{ entries: number }[]>`SELECT ${entryCount} AS entries`,
  ]);
  return { ids: rows.map((row) => row.id), total: counted?.entries ?? 0 };
}

/**
 * An entry that a walk of the duration or total-seconds index passes costs a visit to its heap page (a
 * user's entries are spread among everyone's), about ten times what reading it from the covering index
 * costs (issue 44, at 100,000 entries: 800 ms cold and 240 ms warm from the heap, 40 ms from the index).
 */
const HEAP_VISIT_COST = 10;

/**
 * With `q`: the exact count first. A rare `q` is found by the trigram index ("userId", "searchText"); one that
 * many entries hold, by an index-only scan of the caller's range of the covering index ("userId",
 * "createdAt", "id") INCLUDE (searchText, state, platform, durations) (migration history_covering_index);
 * PostgreSQL picks by its estimate. Either reads the caller's rows only. An exact count must check every
 * match (a trigram index says a row may hold the substring, not that it does), so it costs what the caller's
 * matches are, never what everyone's data is. Knowing the count, the page takes the cheaper of two paths:
 * - walking the sort's index and keeping the matches, which stops after about (offset + limit) × entries ÷
 *   matches entries (each a heap visit, HEAP_VISIT_COST, unless the sort is the covering index's): the way
 *   for a `q` that most entries match, whose page would otherwise sort every match;
 * - or all matches, sorted: the way for a rare `q`, where a walk would read most of the history.
 */
async function pageIdsMatching(
  db: Db,
  q: string,
  query: TranscriptionListQuery,
  { filters, entryCount, order }: { filters: Prisma.Sql; entryCount: Prisma.Sql; order: Prisma.Sql },
): Promise<{ ids: string[]; total: number }> {
  const pattern = substringPattern(q);
  const [{ total, entries }] = (await db.$queryRaw<{ total: number; entries: number }[]>`
    SELECT (SELECT count(*) FROM "Transcription" h WHERE ${filters} AND h."searchText" LIKE lower(${pattern}))::int AS total,
           ${entryCount} AS entries`) as [{ total: number; entries: number }];
  if (total === 0 || query.offset >= total) return { ids: [], total };
  const walked = ((query.offset + query.limit) * entries) / total;
  const rows =
    walked * (query.sort === "created_at" ? 1 : HEAP_VISIT_COST) < total
      ? // `|| ''` keeps the trigram index out of this plan: the sort's index is walked in order.
        await db.$queryRaw<{ id: string }[]>`
          SELECT h."id" FROM "Transcription" h WHERE ${filters} AND (h."searchText" || '') LIKE lower(${pattern})
          ORDER BY ${order} LIMIT ${query.limit} OFFSET ${query.offset}`
      : await db.$queryRaw<{ id: string }[]>`
          WITH m AS MATERIALIZED (
            SELECT h."id", h."${Prisma.raw(SORT_COLUMNS[query.sort])}" FROM "Transcription" h
            WHERE ${filters} AND h."searchText" LIKE lower(${pattern})
          )
          SELECT h."id" FROM m AS h ORDER BY ${order} LIMIT ${query.limit} OFFSET ${query.offset}`;
  return { ids: rows.map((r) => r.id), total };
}

/** GET /v1/me/transcriptions: the caller's history (failed link requests included), filtered, sorted and paged. */
export async function listTranscriptions(userId: string, query: TranscriptionListQuery) {
  const db = await getDb();
  const { ids, total } = await pageIds(db, userId, query);
  const found = ids.length
    ? await db.historyEntry.findMany({
        where: { id: { in: ids } },
        include: { transcript: { select: { title: true, sourceUrl: true } } },
      })
    : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  // In the page's order; an entry deleted between the two statements is left out.
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  // A failed job's reason, for the failed entries on this page (one query).
  const failedJobIds = rows.filter((row) => row.state === "error" && row.jobId).map((row) => row.jobId!);
  const failedJobs = failedJobIds.length
    ? await db.job.findMany({
        where: { id: { in: failedJobIds } },
        select: { id: true, errorCode: true, errorMessage: true },
      })
    : [];
  const failures = new Map(
    failedJobs.map((job) => [
      job.id,
      { code: job.errorCode ?? "job_failed", message: job.errorMessage ?? "The transcription job failed." },
    ]),
  );
  return {
    transcriptions: rows.map((row) => serializeTranscription(row, row.jobId ? failures.get(row.jobId) : null)),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}
