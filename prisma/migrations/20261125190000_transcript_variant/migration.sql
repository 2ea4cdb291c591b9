-- verbatim:no-transaction
-- Speech recognised with a vocabulary is its own cache entry (issue 41): "" is the shared one. The new unique
-- index on the big "Transcript" table is built without blocking writes (issue 44: CREATE INDEX CONCURRENTLY,
-- one statement at a time, lib/db/migrate.ts), before the old one goes, so uniqueness holds throughout; every
-- statement can run again after a failure part-way.
ALTER TABLE "Transcript" ADD COLUMN IF NOT EXISTS "variant" TEXT NOT NULL DEFAULT '';

DROP INDEX CONCURRENTLY IF EXISTS "Transcript_platform_videoId_lang_source_variant_key";
CREATE UNIQUE INDEX CONCURRENTLY "Transcript_platform_videoId_lang_source_variant_key" ON "Transcript"("platform", "videoId", "lang", "source", "variant");

DROP INDEX CONCURRENTLY IF EXISTS "Transcript_platform_videoId_lang_source_key";
