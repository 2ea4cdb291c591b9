-- AlterTable
ALTER TABLE "Follow" ADD COLUMN     "showSlug" TEXT;

-- AlterTable
ALTER TABLE "FollowItem" ADD COLUMN     "publishedAt" TIMESTAMP(3);

-- Follows made before show pages get a slug as lib/publishing/slug.ts makes one: the title's words (ASCII letters and
-- digits, at most 60 characters) and a suffix, here eight hex digits of the follow's id's digest.
UPDATE "Follow"
SET "showSlug" = coalesce(
                   nullif(trim(both '-' from left(trim(both '-' from regexp_replace(lower(coalesce("title", '')), '[^a-z0-9]+', '-', 'g')), 60)), ''),
                   'show')
                 || '-' || substr(md5("id"), 1, 8)
WHERE "showSlug" IS NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Follow_showSlug_key" ON "Follow"("showSlug");
