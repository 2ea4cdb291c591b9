-- verbatim:no-transaction
-- A transcript's corrections by the transcript: search reads one transcript's passages through the view
-- "SearchPassage" for each entry of the caller's library (lib/search/find-moments.ts) and for each row of a
-- page, and without this index the corrections' half of the view was a sequential scan of every correction
-- each time (issue 44: 1.3 s for a library search at a million transcripts with 20,000 corrections). Deleting
-- a transcript (ON DELETE CASCADE) finds its corrections by it too. Built without blocking writes; run again
-- after a failure, it starts over.
DROP INDEX CONCURRENTLY IF EXISTS "TranscriptRevision_transcriptId_userId_idx";
CREATE INDEX CONCURRENTLY "TranscriptRevision_transcriptId_userId_idx" ON "TranscriptRevision"("transcriptId", "userId");
