-- verbatim:no-transaction
-- The history's `q` (lib/transcripts/list-transcriptions.ts) with a substring that many of a large history's
-- entries hold: its exact `total` checks every match, and a page sorted by another column than the newest
-- sorts every match. Read from the heap, each match is a page visit wherever the entry's row lies (a user's
-- entries are spread among everyone's as they are written: 22,660 heap pages for 100,000 entries measured,
-- 800 ms for one count). This index holds, in the user's range of (userId, createdAt, id), every column those
-- reads need, so they are index-only scans of one contiguous range (issue 44: 40 ms for the same count).
-- It replaces "Transcription_userId_createdAt_id_idx" (the default sort's page reads it the same way).
-- Prisma's schema cannot say INCLUDE: the index lives here only, as the trigram index does
-- (prisma/schema.prisma says so at the model). Built without blocking writes; run again after a failure, it
-- rebuilds.
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_history_covering_idx";
CREATE INDEX CONCURRENTLY "Transcription_history_covering_idx" ON "Transcription"("userId", "createdAt", "id")
  INCLUDE ("searchText", "state", "platform", "durationSeconds", "totalSeconds");
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_createdAt_id_idx";
