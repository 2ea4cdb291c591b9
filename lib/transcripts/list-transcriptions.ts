import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { serializeTranscription } from "@/lib/transcripts/serializers";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

const SORT_COLUMNS = {
  created_at: "createdAt",
  duration_seconds: "durationSeconds",
  total_seconds: "totalSeconds",
} as const;

/** GET /v1/me/transcriptions: the caller's history (failed link requests included), filtered, sorted and paged. */
export async function listTranscriptions(userId: string, query: TranscriptionListQuery) {
  const db = await getDb();
  const where: Prisma.HistoryEntryWhereInput = {
    userId,
    ...(query.q
      ? {
          OR: [
            { videoId: { contains: query.q, mode: "insensitive" } },
            { title: { contains: query.q, mode: "insensitive" } },
            { transcript: { title: { contains: query.q, mode: "insensitive" } } },
            // A podcast episode's show, a video's channel.
            { transcript: { channel: { contains: query.q, mode: "insensitive" } } },
          ],
        }
      : {}),
    ...(query.platform ? { platform: query.platform } : {}),
    ...(query.state ? { state: query.state } : {}),
  };
  const column = SORT_COLUMNS[query.sort];
  const [rows, total] = await Promise.all([
    db.historyEntry.findMany({
      where,
      // The id breaks ties so pages never repeat or skip rows.
      orderBy: [{ [column]: query.order }, { id: query.order }],
      take: query.limit,
      skip: query.offset,
      include: { transcript: { select: { title: true, sourceUrl: true } } },
    }),
    db.historyEntry.count({ where }),
  ]);
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
