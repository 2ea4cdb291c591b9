import { getDb } from "@/lib/db/client";
import type { Format } from "@/lib/formats";
import type { Transcript } from "@/lib/generated/prisma/client";
import { serializeTranscript } from "@/lib/transcripts/serializers";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";

// The author overlay: wherever a user meets a transcript (GET, a repeated POST /v1/transcript, a finished job,
// downloads, MCP, their public page), the shared row is read as it is and then, if that user saved a
// correction, its segments are replaced by their newest revision's. The shared row is never written, so
// nobody else sees the correction (except through the author's public page, which reads the publisher's view).

/** A transcript row as one user sees it: `edited` when their revision replaced the segments. */
export type AuthorRow = Transcript & { edited?: true; revisionId?: string };

/** The newest revision of (user, transcript), or null. */
export async function newestRevision(userId: string, transcriptId: string) {
  const db = await getDb();
  return db.transcriptRevision.findFirst({
    where: { userId, transcriptId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/**
 * `row` as `userId` sees it. The overlaid row's `fetchedAt` is the later of the transcript's and the
 * revision's time, so that every validator built from it (the public page's ETag) changes with each save.
 */
export async function authorView(userId: string, row: Transcript): Promise<AuthorRow> {
  const revision = await newestRevision(userId, row.id);
  if (!revision) return row;
  return {
    ...row,
    segments: revision.segments as Transcript["segments"],
    fetchedAt: revision.createdAt > row.fetchedAt ? revision.createdAt : row.fetchedAt,
    edited: true,
    revisionId: revision.id,
  };
}

/** The transcript object as `userId` sees it, marked `edited: true` when it is their correction. */
export async function serializeForAuthor(userId: string, row: Transcript, format: Format): Promise<TranscriptResponse> {
  return serializeTranscript(await authorView(userId, row), format);
}
