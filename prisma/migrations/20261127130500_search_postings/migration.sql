-- Search ranks the best moments of all matches, and a transcript's words are stored once (lib/search/README.md,
-- docs/decisions/0027-search-ranks-by-impact-ordered-postings.md). Each passage (a transcript's, a correction's) gets an
-- id, "pid", from one sequence shared by both tables: newer passages have higher ids, the tie-breaker of equal
-- scores. "SearchTerm" numbers every lexeme any passage holds; "SearchPosting" holds, per passage and term, the
-- term's impact in that passage (verbatim_search_impact: BM25's saturated, length-normalised term frequency, plus
-- a weight when the transcript's title holds the term), read by (term, impact DESC, pid DESC): a term's best
-- passages first, newest first among equals. Statement triggers on both passage tables keep them; a transcript's
-- new title posts its passages again.
--
-- A history entry no longer keeps its transcript's words ("lexemes", migration library_lexemes): the library is
-- a filter on the passages' postings, so the column, its index and everything that kept it go.

-- CreateTable
CREATE TABLE "SearchTerm" (
    "id" SERIAL NOT NULL,
    "term" TEXT NOT NULL,

    CONSTRAINT "SearchTerm_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchTerm_term_key" ON "SearchTerm"("term");

-- CreateTable
CREATE TABLE "SearchPosting" (
    "pid" BIGINT NOT NULL,
    "termId" INTEGER NOT NULL,
    "impact" REAL NOT NULL,

    CONSTRAINT "SearchPosting_pkey" PRIMARY KEY ("pid","termId")
);

-- CreateIndex
CREATE INDEX "SearchPosting_termId_impact_pid_idx" ON "SearchPosting"("termId", "impact" DESC, "pid" DESC);

CREATE SEQUENCE "SearchPassage_pid_seq" AS BIGINT;

-- AlterTable: existing passages are numbered in the order of their transcripts' creation.
ALTER TABLE "TranscriptPassage" ADD COLUMN "pid" BIGINT;
UPDATE "TranscriptPassage" p SET "pid" = o.pid
FROM (SELECT p2."transcriptId", p2."seq", nextval('"SearchPassage_pid_seq"') AS pid
      FROM (SELECT tp."transcriptId", tp."seq" FROM "TranscriptPassage" tp JOIN "Transcript" t ON t."id" = tp."transcriptId"
            ORDER BY t."createdAt", tp."transcriptId", tp."seq") AS p2) AS o
WHERE p."transcriptId" = o."transcriptId" AND p."seq" = o."seq";
ALTER TABLE "TranscriptPassage" ALTER COLUMN "pid" SET DEFAULT nextval('"SearchPassage_pid_seq"'), ALTER COLUMN "pid" SET NOT NULL;

ALTER TABLE "RevisionPassage" ADD COLUMN "pid" BIGINT;
UPDATE "RevisionPassage" p SET "pid" = o.pid
FROM (SELECT p2."revisionId", p2."seq", nextval('"SearchPassage_pid_seq"') AS pid
      FROM (SELECT rp."revisionId", rp."seq" FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
            ORDER BY r."createdAt", rp."revisionId", rp."seq") AS p2) AS o
WHERE p."revisionId" = o."revisionId" AND p."seq" = o."seq";
ALTER TABLE "RevisionPassage" ALTER COLUMN "pid" SET DEFAULT nextval('"SearchPassage_pid_seq"'), ALTER COLUMN "pid" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "TranscriptPassage_pid_key" ON "TranscriptPassage"("pid");

-- CreateIndex
CREATE UNIQUE INDEX "RevisionPassage_pid_key" ON "RevisionPassage"("pid");

-- The view gains the passage's id (a column added at the end).
CREATE OR REPLACE VIEW "SearchPassage" AS
  SELECT p."transcriptId", p."seq", p."segFrom", p."segTo", p."start", p."end", p."config", p."tsv",
         NULL::text AS "editorId", NULL::text AS "revisionId", p."pid"
  FROM "TranscriptPassage" p
  UNION ALL
  SELECT r."transcriptId", rp."seq", rp."segFrom", rp."segTo", rp."start", rp."end", rp."config", rp."tsv",
         r."userId" AS "editorId", r."id" AS "revisionId", rp."pid"
  FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId";

-- Words stored once: what kept each entry's "lexemes" goes.
DROP TRIGGER IF EXISTS "Transcription_lexemes" ON "Transcription";
DROP TRIGGER IF EXISTS "Transcription_lexemes_changed" ON "Transcription";
DROP TRIGGER IF EXISTS "TranscriptPassage_lexemes" ON "TranscriptPassage";
DROP TRIGGER IF EXISTS "RevisionPassage_lexemes" ON "RevisionPassage";
DROP FUNCTION IF EXISTS verbatim_entry_lexemes_row();
DROP FUNCTION IF EXISTS verbatim_transcript_passages_lexemes();
DROP FUNCTION IF EXISTS verbatim_revision_passages_lexemes();
DROP FUNCTION IF EXISTS verbatim_entry_lexemes(TEXT, TEXT);
DROP FUNCTION IF EXISTS verbatim_library_key(TEXT);
DROP INDEX IF EXISTS "Transcription_lexemes_idx";
ALTER TABLE "Transcription" DROP COLUMN IF EXISTS "lexemes";

-- A term's impact in a passage: BM25's term frequency part (k1 = 1.2, b = 0.75) with the passage's length dl in
-- indexed words against a fixed average of 20 (a passage is about 200 characters: no global figure to keep
-- current), plus 1 when the transcript's title holds the term. Used by verbatim_search_post alone.
CREATE OR REPLACE FUNCTION verbatim_search_impact(tf INTEGER, dl INTEGER, in_title BOOLEAN) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ($1 * 2.2 / ($1 + 1.2 * (0.25 + 0.75 * $2 / 20.0)) + CASE WHEN $3 THEN 1.0 ELSE 0.0 END)::real
$$;

-- The postings of the passages whose ids are given (either table's, read through "SearchPassage"): their terms
-- numbered (in order, so that two writers never wait on each other's terms crosswise), then one posting per
-- term, its impact computed again where it exists (a transcript's new title).
CREATE OR REPLACE FUNCTION verbatim_search_post(pids BIGINT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchTerm" ("term")
  SELECT DISTINCT w.lexeme FROM "SearchPassage" p CROSS JOIN LATERAL unnest(p."tsv") AS w
  WHERE p."pid" = ANY (pids) ORDER BY 1
  ON CONFLICT ("term") DO NOTHING;
  INSERT INTO "SearchPosting" ("pid", "termId", "impact")
  SELECT p."pid", st."id", verbatim_search_impact(coalesce(cardinality(w.positions), 1), d.dl, w.lexeme = ANY (tl.words))
  FROM "SearchPassage" p
  JOIN "Transcript" t ON t."id" = p."transcriptId"
  CROSS JOIN LATERAL (
    SELECT tsvector_to_array(to_tsvector(p."config"::regconfig, coalesce(t."title", ''))
                             || to_tsvector('simple', verbatim_cjk_bigrams(t."title"))) AS words
  ) AS tl
  CROSS JOIN LATERAL (SELECT coalesce(sum(coalesce(cardinality(x.positions), 1)), 0)::int AS dl FROM unnest(p."tsv") AS x) AS d
  CROSS JOIN LATERAL unnest(p."tsv") AS w
  JOIN "SearchTerm" st ON st."term" = w.lexeme
  WHERE p."pid" = ANY (pids)
  ON CONFLICT ("pid", "termId") DO UPDATE SET "impact" = EXCLUDED."impact";
END
$$;

-- Passages written (a transcript cut, a correction saved): their postings, once per statement.
CREATE OR REPLACE FUNCTION verbatim_passages_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(SELECT a."pid" FROM added a)); RETURN NULL; END
$$;

-- Passages deleted (cut again, a correction replaced, a transcript or revision deleted): their postings.
CREATE OR REPLACE FUNCTION verbatim_passages_unposted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPosting" sp WHERE sp."pid" IN (SELECT r."pid" FROM removed r); RETURN NULL; END
$$;

-- A transcript's title changed: the title part of its passages' impacts (its corrections' too).
CREATE OR REPLACE FUNCTION verbatim_transcript_title_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(SELECT p."pid" FROM "SearchPassage" p WHERE p."transcriptId" = NEW."id")); RETURN NULL; END
$$;

CREATE OR REPLACE TRIGGER "TranscriptPassage_posted" AFTER INSERT ON "TranscriptPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_posted();

CREATE OR REPLACE TRIGGER "TranscriptPassage_unposted" AFTER DELETE ON "TranscriptPassage"
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_unposted();

CREATE OR REPLACE TRIGGER "RevisionPassage_posted" AFTER INSERT ON "RevisionPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_posted();

CREATE OR REPLACE TRIGGER "RevisionPassage_unposted" AFTER DELETE ON "RevisionPassage"
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_unposted();

CREATE OR REPLACE TRIGGER "Transcript_title_posted" AFTER UPDATE OF "title" ON "Transcript"
FOR EACH ROW WHEN (OLD."title" IS DISTINCT FROM NEW."title") EXECUTE FUNCTION verbatim_transcript_title_posted();

-- The passages there are.
SELECT verbatim_search_post(ARRAY(SELECT "pid" FROM "TranscriptPassage"));
SELECT verbatim_search_post(ARRAY(SELECT "pid" FROM "RevisionPassage"));

-- Statistics for the tables just filled: search's plans read them from the first query on.
ANALYZE "SearchTerm", "SearchPosting", "TranscriptPassage", "RevisionPassage", "Transcription";
