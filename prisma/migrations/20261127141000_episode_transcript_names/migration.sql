-- An episode whose feed publishes its transcript is remembered for the user with what its feed calls it and the
-- show's name (lib/podcasts/episode-transcripts.ts), so that a transcript of it asked for later by its audio link
-- alone (after POST /v1/podcast/resolve, outside an import or a follow) is named as its feed names it.
ALTER TABLE "PodcastEpisodeTranscript" ADD COLUMN IF NOT EXISTS "title" TEXT;
ALTER TABLE "PodcastEpisodeTranscript" ADD COLUMN IF NOT EXISTS "show" TEXT;
