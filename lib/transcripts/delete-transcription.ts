import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { expirePublicPages } from "@/lib/cache/public-pages";

/**
 * DELETE /v1/me/transcriptions/{id}: removes one entry from the caller's history. The transcript itself
 * stays in the shared cache (other users' entries point at it); the caller's public page of it is taken
 * down, and the caller's corrections of it (lib/edits) are deleted with the entry. Asking for the same source
 * again adds a new entry, charged like any new one.
 */
export async function deleteTranscription(userId: string, id: string): Promise<void> {
  const db = await getDb();
  const unpublished = await db.$transaction(async (tx) => {
    const entry = await tx.transcription.findFirst({
      where: { id, userId },
      select: { id: true, state: true, jobId: true, transcriptId: true },
    });
    if (!entry) throw errors.notFound("No transcription with this id in your history.");
    if (entry.state === "in_progress" && entry.jobId) {
      // Its job still reserves allowance and will write to this entry: let it end first.
      const job = await tx.job.findUnique({ where: { id: entry.jobId }, select: { status: true } });
      if (job && (job.status === "queued" || job.status === "running")) {
        throw errors.conflict(
          "transcription_in_progress",
          "This transcription is still running. Delete it once it has finished or failed.",
        );
      }
    }
    await tx.transcription.delete({ where: { id: entry.id } });
    if (!entry.transcriptId) return [];
    await tx.transcriptRevision.deleteMany({ where: { userId, transcriptId: entry.transcriptId } });
    const published = await tx.publication.findMany({
      where: { userId, transcriptId: entry.transcriptId, publishedAt: { not: null } },
      select: { id: true, slug: true },
    });
    await tx.publication.updateMany({
      where: { id: { in: published.map((row) => row.id) } },
      data: { publishedAt: null },
    });
    return published.map((row) => row.slug);
  });
  if (unpublished.length > 0) expirePublicPages(unpublished);
}
