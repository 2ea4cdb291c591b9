import { getDb, type Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { serializeTranscription } from "@/lib/transcripts/serializers";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

const SORT_COLUMNS = {
  created_at: "createdAt",
  duration_seconds: "durationSeconds",
  total_seconds: "totalSeconds",
} as const;

/** `q` as an ILIKE pattern: a substring, its own % _ and \\ taken literally. */
const substringPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The ids of one page and the exact `total`. Every statement reads the caller's rows only, by an index
 * with "userId" first (migrations flat_reads and flat_reads_indexes):
 * - with `q`: the entries whose "searchText" (video id, title, the transcript's title and channel, kept by
 *   triggers) contains it, found by the trigram index; the page and the count are taken from that one set;
 * - without: the page from the index of the sort (user, sort column, id: the ids of a deep offset are read
 *   from the index alone), the total from "HistoryCount" (entries per platform and state, kept by a trigger).
 */
async function pageIds(
  db: Db,
  userId: string,
  query: TranscriptionListQuery,
): Promise<{ ids: string[]; total: number }> {
  const column = Prisma.raw(`"${SORT_COLUMNS[query.sort]}"`);
  const direction = Prisma.raw(query.order === "asc" ? "ASC" : "DESC");
  const filters = Prisma.join(
    [
      Prisma.sql`h."userId" = ${userId}`,
      ...(query.platform ? [Prisma.sql`h."platform" = ${query.platform}`] : []),
      ...(query.state ? [Prisma.sql`h."state" = ${query.state}`] : []),
    ],
    " AND ",
  );
  if (query.q) {
    const [row] = await db.$queryRaw<{ total: number; ids: string[] }[]>`
      WITH m AS MATERIALIZED (
        SELECT h."id", h.${column} AS k FROM "Transcription" h
        WHERE ${filters} AND h."searchText" ILIKE ${substringPattern(query.q)}
      )
      SELECT (SELECT count(*) FROM m)::int AS total,
             array(SELECT "id" FROM m ORDER BY k ${direction}, "id" ${direction} LIMIT ${query.limit} OFFSET ${query.offset}) AS ids`;
    return row!;
  }
  const [rows, counts] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`
      SELECT h."id" FROM "Transcription" h WHERE ${filters}
      ORDER BY h.${column} ${direction}, h."id" ${direction} LIMIT ${query.limit} OFFSET ${query.offset}`,
    db.historyCount.aggregate({
      _sum: { n: true },
      where: {
        userId,
        ...(query.platform ? { platform: query.platform } : {}),
        ...(query.state ? { state: query.state } : {}),
      },
    }),
  ]);
  return { ids: rows.map((row) => row.id), total: counts._sum.n ?? 0 };
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
