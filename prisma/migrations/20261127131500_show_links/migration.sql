-- verbatim:no-transaction
-- A show page's place in the sitemap (lib/publishing/sitemap.ts: shows parts are ranges of "showSeq"), and the
-- show an episode's public page names (lib/publishing/show-page.ts: the follow item of a published transcript).
-- The index on the item table is built without blocking writes, one statement at a time (lib/db/migrate.ts); each
-- statement can run again after a failure part-way.

ALTER TABLE "Follow" ADD COLUMN IF NOT EXISTS "showSeq" SERIAL NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS "Follow_showSeq_key" ON "Follow"("showSeq");

DROP INDEX CONCURRENTLY IF EXISTS "FollowItem_transcriptId_idx";
CREATE INDEX CONCURRENTLY "FollowItem_transcriptId_idx" ON "FollowItem"("transcriptId");
