-- verbatim:no-transaction
-- The indexes of 20261125180000_flat_reads on the big tables, built without blocking writes: CREATE INDEX
-- CONCURRENTLY cannot run in a transaction, so this migration runs one statement at a time (the first line's
-- marker, lib/db/migrate.ts). A run that fails part-way leaves an invalid index behind; each CREATE is
-- preceded by its DROP … IF EXISTS, so running the migration again rebuilds it.

-- The history's `q`: one account's entries whose searchText contains the substring (trigrams).
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_searchText_idx";
CREATE INDEX CONCURRENTLY "Transcription_userId_searchText_idx" ON "Transcription" USING GIN ("userId", "searchText" gin_trgm_ops);

-- One index per sort the contract lists, the id last (the tie-breaker), so a page and a deep offset read
-- the index in order (the ids of a deep offset from the index alone) instead of sorting every entry.
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_createdAt_id_idx";
CREATE INDEX CONCURRENTLY "Transcription_userId_createdAt_id_idx" ON "Transcription"("userId", "createdAt", "id");
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_durationSeconds_id_idx";
CREATE INDEX CONCURRENTLY "Transcription_userId_durationSeconds_id_idx" ON "Transcription"("userId", "durationSeconds", "id");
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_totalSeconds_id_idx";
CREATE INDEX CONCURRENTLY "Transcription_userId_totalSeconds_id_idx" ON "Transcription"("userId", "totalSeconds", "id");
-- The state filter (failed entries first of all), newest first.
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_state_createdAt_id_idx";
CREATE INDEX CONCURRENTLY "Transcription_userId_state_createdAt_id_idx" ON "Transcription"("userId", "state", "createdAt", "id");
-- Replaced by the one with the id.
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_userId_createdAt_idx";
-- A transcript's history entries (searchText kept current; ON DELETE SET NULL; the library search's visibility).
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_transcriptId_userId_idx";
CREATE INDEX CONCURRENTLY "Transcription_transcriptId_userId_idx" ON "Transcription"("transcriptId", "userId");

-- Explore's title search (listPublished: a substring of the title, newest first): the matching titles
-- by trigram, instead of walking every publication when a title is rare.
DROP INDEX CONCURRENTLY IF EXISTS "Transcript_title_idx";
CREATE INDEX CONCURRENTLY "Transcript_title_idx" ON "Transcript" USING GIN ("title" gin_trgm_ops);

-- The public search's visibility and each result's slug: a transcript's publications.
DROP INDEX CONCURRENTLY IF EXISTS "Publication_transcriptId_publishedAt_idx";
CREATE INDEX CONCURRENTLY "Publication_transcriptId_publishedAt_idx" ON "Publication"("transcriptId", "publishedAt");

-- Sitemap parts: ranges of sitemapSeq.
DROP INDEX CONCURRENTLY IF EXISTS "Publication_sitemapSeq_key";
CREATE UNIQUE INDEX CONCURRENTLY "Publication_sitemapSeq_key" ON "Publication"("sitemapSeq");
