import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { serializeTranscription } from "@/lib/transcripts/serializers";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

const SORT_COLUMNS = { created_at: "createdAt", duration_seconds: "durationSeconds", total_seconds: "totalSeconds" } as const;

/** GET /v1/me/transcriptions: the caller's history, filtered, sorted and paged. */
export async function listTranscriptions(userId: string, query: TranscriptionListQuery) {
  const db = await getDb();
  const where: Prisma.TranscriptionWhereInput = {
    userId,
    ...(query.q ? { videoId: { contains: query.q, mode: "insensitive" } } : {}),
    ...(query.platform ? { platform: query.platform } : {}),
    ...(query.state ? { state: query.state } : {}),
  };
  const column = SORT_COLUMNS[query.sort];
  const [rows, total] = await Promise.all([
    db.transcription.findMany({
      where,
      // The id breaks ties so pages never repeat or skip rows.
      orderBy: [{ [column]: query.order }, { id: query.order }],
      take: query.limit,
      skip: query.offset,
      include: { transcript: { select: { sourceUrl: true } } },
    }),
    db.transcription.count({ where }),
  ]);
  return { transcriptions: rows.map(serializeTranscription), total, limit: query.limit, offset: query.offset };
}
