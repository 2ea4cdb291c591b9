-- Full-text search of corrections (lib/edits, lib/search). A user's correction of a transcript is theirs alone,
-- so its words are indexed apart from the shared transcript's: the newest revision of each (user, transcript)
-- is cut into passages exactly as "TranscriptPassage" (the same segments reader, ~200-character passages, the
-- same tsvector), in "RevisionPassage", by a trigger on "TranscriptRevision"; saving a newer revision drops
-- the passages of the older ones (only the current one is searched), and deleting a revision (restore,
-- pruning) drops its own by cascade. The view "SearchPassage" is what search reads: every transcript's
-- passages (editorId NULL) and every current revision's (editorId = its author, revisionId set). Who may see
-- which is decided when searching (lib/search/find-moments.ts): the author's library reads their revision's
-- passages instead of the transcript's; a public page's search reads its publisher's version.

-- CreateTable
CREATE TABLE "RevisionPassage" (
    "revisionId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "segFrom" INTEGER NOT NULL,
    "segTo" INTEGER NOT NULL,
    "start" DOUBLE PRECISION NOT NULL,
    "end" DOUBLE PRECISION NOT NULL,
    "config" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "RevisionPassage_pkey" PRIMARY KEY ("revisionId","seq")
);

-- CreateIndex
CREATE INDEX "RevisionPassage_tsv_idx" ON "RevisionPassage" USING GIN ("tsv");

-- AddForeignKey
ALTER TABLE "RevisionPassage" ADD CONSTRAINT "RevisionPassage_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "TranscriptRevision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Replaces one revision's passages with those of its segments (the body of verbatim_index_transcript).
CREATE FUNCTION verbatim_index_revision(rid TEXT, lang TEXT, segments JSONB) RETURNS VOID
LANGUAGE sql AS $$
  DELETE FROM "RevisionPassage" WHERE "revisionId" = rid;
  INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv")
  SELECT rid, p.seq, p.seg_from, p.seg_to, p.first_start, p.last_end, p.cfg,
         to_tsvector(p.cfg::regconfig, p.body) || to_tsvector('simple', verbatim_cjk_bigrams(p.body))
  FROM (
    SELECT w.seq, verbatim_search_config(lang) AS cfg, min(w.idx) AS seg_from, max(w.idx) AS seg_to,
           min(w.start_s) AS first_start, max(greatest(w.end_s, w.start_s)) AS last_end,
           string_agg(w.text, ' ' ORDER BY w.idx) AS body
    FROM (
      SELECT s.*, (coalesce(sum(char_length(s.text) + 1) OVER (ORDER BY s.idx ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 200)::int AS seq
      FROM verbatim_segments(segments) AS s
    ) AS w
    GROUP BY w.seq
  ) AS p
$$;

CREATE FUNCTION verbatim_revision_search_trigger() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "RevisionPassage" rp USING "TranscriptRevision" r
  WHERE rp."revisionId" = r."id" AND r."userId" = NEW."userId" AND r."transcriptId" = NEW."transcriptId"
    AND r."id" <> NEW."id";
  PERFORM verbatim_index_revision(NEW."id", (SELECT t."lang" FROM "Transcript" t WHERE t."id" = NEW."transcriptId"), NEW."segments");
  RETURN NULL;
END
$$;

CREATE TRIGGER "TranscriptRevision_search_index" AFTER INSERT ON "TranscriptRevision"
FOR EACH ROW EXECUTE FUNCTION verbatim_revision_search_trigger();

-- What search reads: the transcripts' passages and the current corrections' passages, one shape.
CREATE VIEW "SearchPassage" AS
  SELECT p."transcriptId", p."seq", p."segFrom", p."segTo", p."start", p."end", p."config", p."tsv",
         NULL::text AS "editorId", NULL::text AS "revisionId"
  FROM "TranscriptPassage" p
  UNION ALL
  SELECT r."transcriptId", rp."seq", rp."segFrom", rp."segTo", rp."start", rp."end", rp."config", rp."tsv",
         r."userId" AS "editorId", r."id" AS "revisionId"
  FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId";
