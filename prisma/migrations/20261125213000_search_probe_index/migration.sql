-- verbatim:no-transaction
-- The library search's visibility probe (lib/search/find-moments.ts: a done entry of the caller for each
-- candidate passage) reads the index alone: "state" joins ("transcriptId", "userId"), which still serves every
-- lookup the two-column index did (a transcript's entries; a user's entry of a transcript). Built without
-- blocking writes, as 20261125180100_flat_reads_indexes; each CREATE is preceded by its DROP … IF EXISTS so a
-- run that failed part-way can be run again.
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_transcriptId_userId_state_idx";
CREATE INDEX CONCURRENTLY "Transcription_transcriptId_userId_state_idx" ON "Transcription"("transcriptId", "userId", "state");
DROP INDEX CONCURRENTLY IF EXISTS "Transcription_transcriptId_userId_idx";
