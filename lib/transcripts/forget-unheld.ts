import { getDb } from "@/lib/db/client";

/** Transcripts deleted per statement: each takes its passages and postings with it. */
const BATCH = 100;

/**
 * Deletes the transcripts of uploads that no history entry holds and no live publication shows any more (their
 * last holder deleted the entry): with them go their passages, their postings and every correction of them, so
 * their words leave the index (the terms themselves at the next deleteUnusedSearchTerms). A transcript of a
 * platform's source stays in the shared cache for whoever asks for it next; search never shows a transcript its
 * caller does not hold or see published (lib/search/visible-terms.ts), so its words show to no one meanwhile.
 * Returns how many were deleted.
 */
export async function deleteUnheldUploadTranscripts(): Promise<number> {
  const db = await getDb();
  let deleted = 0;
  for (;;) {
    const gone = await db.$executeRaw`
      DELETE FROM "Transcript" WHERE "id" IN (
        SELECT t."id" FROM "Transcript" t
        WHERE t."platform" = 'upload'
          AND NOT EXISTS (SELECT 1 FROM "Transcription" h WHERE h."transcriptId" = t."id")
          AND NOT EXISTS (SELECT 1 FROM "Publication" pub WHERE pub."transcriptId" = t."id" AND pub."publishedAt" IS NOT NULL)
        LIMIT ${BATCH})`;
    deleted += gone;
    if (gone < BATCH) return deleted;
  }
}
