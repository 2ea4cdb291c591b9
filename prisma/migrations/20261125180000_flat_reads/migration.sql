-- Reads that cost the same at a million rows as at ten thousand (issue 44). The indexes on the big tables
-- are built by the next migration (20261125180100_flat_reads_indexes), CONCURRENTLY, outside a transaction.
--
-- 1. The history's substring filter `q` (lib/transcripts/list-transcriptions.ts) matches one text kept on
--    the history row, "searchText": the entry's video id and title, its transcript's title and channel,
--    one per line. Triggers keep it current (an entry written, a transcript's title or channel changed), and
--    a GIN index on ("userId", "searchText" gin_trgm_ops) (btree_gin for the first column) finds one
--    account's matches without reading any other account's rows.
-- 2. The history's `total` without a filter `q` is a sum of "HistoryCount" rows (one per user, platform and
--    state, kept by a trigger in the same transaction as the entry's write): exact, and a few rows at most.
-- 3. Sitemap parts (lib/publishing/sitemap.ts) are ranges of "Publication"."sitemapSeq", a number given
--    once when the publication row is made (a page keeps its part for good): the number of parts is the
--    highest live number, read from an index, not a count.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- 1. What `q` matches, one value per line.
ALTER TABLE "Transcription" ADD COLUMN "searchText" TEXT NOT NULL DEFAULT '';

CREATE FUNCTION verbatim_history_search_text(video_id TEXT, title TEXT, transcript_id TEXT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
  -- $1, $2, $3: the parameters (a bare "title" would be the transcript's column).
  SELECT concat_ws(E'\n', $1, $2, t."title", t."channel")
  FROM (SELECT 1) AS one LEFT JOIN "Transcript" t ON t."id" = $3
$$;

CREATE FUNCTION verbatim_history_search_text_row() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchText" := verbatim_history_search_text(NEW."videoId", NEW."title", NEW."transcriptId");
  RETURN NEW;
END
$$;

CREATE TRIGGER "Transcription_searchText"
BEFORE INSERT OR UPDATE OF "videoId", "title", "transcriptId" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_history_search_text_row();

CREATE FUNCTION verbatim_transcript_search_text_changed() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" SET "searchText" = verbatim_history_search_text("videoId", "title", "transcriptId")
  WHERE "transcriptId" = NEW."id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Transcript_history_searchText"
AFTER UPDATE OF "title", "channel" ON "Transcript"
FOR EACH ROW WHEN (OLD."title" IS DISTINCT FROM NEW."title" OR OLD."channel" IS DISTINCT FROM NEW."channel")
EXECUTE FUNCTION verbatim_transcript_search_text_changed();

UPDATE "Transcription" SET "searchText" = verbatim_history_search_text("videoId", "title", "transcriptId");

-- 2. Entries per user, platform and state.
CREATE TABLE "HistoryCount" (
    "userId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "HistoryCount_pkey" PRIMARY KEY ("userId","platform","state")
);

ALTER TABLE "HistoryCount" ADD CONSTRAINT "HistoryCount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION verbatim_history_count() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "HistoryCount" SET "n" = "n" - 1
    WHERE "userId" = OLD."userId" AND "platform" = OLD."platform" AND "state" = OLD."state";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "HistoryCount" ("userId", "platform", "state", "n") VALUES (NEW."userId", NEW."platform", NEW."state", 1)
    ON CONFLICT ("userId", "platform", "state") DO UPDATE SET "n" = "HistoryCount"."n" + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Transcription_count"
AFTER INSERT OR DELETE OR UPDATE OF "userId", "platform", "state" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_history_count();

INSERT INTO "HistoryCount" ("userId", "platform", "state", "n")
SELECT "userId", "platform", "state", count(*)::int FROM "Transcription" GROUP BY 1, 2, 3;

-- 3. The sitemap's numbering: in the order the pages were first published.
CREATE SEQUENCE "Publication_sitemapSeq_seq" AS INTEGER;
ALTER TABLE "Publication" ADD COLUMN "sitemapSeq" INTEGER;
UPDATE "Publication" p SET "sitemapSeq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "publishedAt" NULLS LAST, "createdAt", "id") AS n FROM "Publication") AS o
WHERE o."id" = p."id";
SELECT setval('"Publication_sitemapSeq_seq"', coalesce((SELECT max("sitemapSeq") FROM "Publication"), 0) + 1, false);
ALTER TABLE "Publication" ALTER COLUMN "sitemapSeq" SET DEFAULT nextval('"Publication_sitemapSeq_seq"');
ALTER TABLE "Publication" ALTER COLUMN "sitemapSeq" SET NOT NULL;
ALTER SEQUENCE "Publication_sitemapSeq_seq" OWNED BY "Publication"."sitemapSeq";
