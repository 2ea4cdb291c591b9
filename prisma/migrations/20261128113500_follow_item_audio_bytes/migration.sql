-- A followed episode keeps its audio file's size as its feed's enclosure gives it, so the show's own feed
-- (lib/publishing/show-feed.ts) relays the file's length instead of 0.
ALTER TABLE "FollowItem" ADD COLUMN IF NOT EXISTS "audioBytes" BIGINT;
