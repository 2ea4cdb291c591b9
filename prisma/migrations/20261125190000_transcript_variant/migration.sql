-- Speech recognised with a vocabulary is its own cache entry (issue 41): "" is the shared one.
ALTER TABLE "Transcript" ADD COLUMN "variant" TEXT NOT NULL DEFAULT '';

DROP INDEX "Transcript_platform_videoId_lang_source_key";

CREATE UNIQUE INDEX "Transcript_platform_videoId_lang_source_variant_key" ON "Transcript"("platform", "videoId", "lang", "source", "variant");
