-- verbatim:no-transaction
-- The library search (lib/search/find-moments.ts) starts from the caller's own history: each entry keeps the
-- words its transcript's passages hold, as the caller sees them (the transcript's, and those of their current
-- correction), in "lexemes", each prefixed by its user's key (verbatim_library_key: "5609a277 ocean"), and a
-- GIN index on "lexemes" finds the caller's entries holding a query's words by their own keys alone: it reads
-- no other account's entries, not even in the index. It was found from the words' index over everyone's
-- passages, each match checked against the caller's history: a word in 10 % of a million passages meant 97,000
-- matches and, for a library of 100,000 entries spread among everyone's, 10,700 checks (issue 44: 60 ms at a
-- million against 11 at ten thousand). With the user as a column of the index instead (btree_gin), every
-- entry holding the word, anyone's, was read from the index to meet the user's: 7 ms for that library.
--
-- "lexemes" is a superset, never less: search still matches each passage of the entries found (two users
-- whose keys are the same only find each other's entries here, which the search's "userId" then drops). It
-- holds no positions (a phrase or an -excluded word is checked on the passages), and a correction's words stay after
-- the correction is undone until the passages are cut again. Kept by triggers: an entry's own (its transcript
-- set or changed), and a statement trigger on each passage table (a transcript cut again, a correction saved)
-- that recomputes the entries of the transcripts whose passages were written.
--
-- Outside a transaction (the first line's marker, lib/db/migrate.ts; it splits statements at a ";" that ends a
-- line, so none does inside a function's body): existing entries are filled in committed
-- batches of 5,000, then the index is built without blocking writes. Every statement can be run again.
ALTER TABLE "Transcription" ADD COLUMN IF NOT EXISTS "lexemes" tsvector NOT NULL DEFAULT ''::tsvector;

-- A user's key: the first 8 hex digits of the SHA-256 of their id (lib/search/find-moments.ts computes the same).
CREATE OR REPLACE FUNCTION verbatim_library_key(user_id TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 8)
$$;

-- The words of a transcript's passages and of the user's current correction's passages, without positions,
-- each after the user's key and a space (no word holds a space).
CREATE OR REPLACE FUNCTION verbatim_entry_lexemes(transcript_id TEXT, user_id TEXT) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  -- The key once (OFFSET 0 keeps it from being computed again for each word), each distinct word once.
  SELECT coalesce(array_to_tsvector(array_agg(k.key || ' ' || d.lexeme)), ''::tsvector)
  FROM (SELECT verbatim_library_key($2) AS key OFFSET 0) AS k,
       (SELECT DISTINCT w.lexeme FROM (
          SELECT p."tsv" FROM "TranscriptPassage" p WHERE p."transcriptId" = $1
          UNION ALL
          SELECT rp."tsv" FROM "TranscriptRevision" r JOIN "RevisionPassage" rp ON rp."revisionId" = r."id"
          WHERE r."userId" = $2 AND r."transcriptId" = $1
        ) AS p CROSS JOIN LATERAL unnest(p."tsv") AS w) AS d
$$;

CREATE OR REPLACE FUNCTION verbatim_entry_lexemes_row() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."lexemes" := CASE WHEN NEW."transcriptId" IS NULL THEN ''::tsvector
                        ELSE verbatim_entry_lexemes(NEW."transcriptId", NEW."userId") END; RETURN NEW; END
$$;

DROP TRIGGER IF EXISTS "Transcription_lexemes" ON "Transcription";
CREATE TRIGGER "Transcription_lexemes" BEFORE INSERT ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_entry_lexemes_row();

DROP TRIGGER IF EXISTS "Transcription_lexemes_changed" ON "Transcription";
CREATE TRIGGER "Transcription_lexemes_changed" BEFORE UPDATE OF "transcriptId", "userId" ON "Transcription"
FOR EACH ROW WHEN (OLD."transcriptId" IS DISTINCT FROM NEW."transcriptId" OR OLD."userId" IS DISTINCT FROM NEW."userId")
EXECUTE FUNCTION verbatim_entry_lexemes_row();

-- Passages written: the entries of those transcripts (every user's for a transcript's, the author's for a correction's).
CREATE OR REPLACE FUNCTION verbatim_transcript_passages_lexemes() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" h SET "lexemes" = verbatim_entry_lexemes(h."transcriptId", h."userId")
  WHERE h."transcriptId" IN (SELECT DISTINCT a."transcriptId" FROM added a); RETURN NULL; END
$$;

CREATE OR REPLACE FUNCTION verbatim_revision_passages_lexemes() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" h SET "lexemes" = verbatim_entry_lexemes(h."transcriptId", h."userId")
  FROM (SELECT DISTINCT r."userId", r."transcriptId" FROM added a JOIN "TranscriptRevision" r ON r."id" = a."revisionId") AS c
  WHERE h."userId" = c."userId" AND h."transcriptId" = c."transcriptId"; RETURN NULL; END
$$;

DROP TRIGGER IF EXISTS "TranscriptPassage_lexemes" ON "TranscriptPassage";
CREATE TRIGGER "TranscriptPassage_lexemes" AFTER INSERT ON "TranscriptPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_transcript_passages_lexemes();

DROP TRIGGER IF EXISTS "RevisionPassage_lexemes" ON "RevisionPassage";
CREATE TRIGGER "RevisionPassage_lexemes" AFTER INSERT ON "RevisionPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_revision_passages_lexemes();

-- One statement (the runner splits at a ";" that ends a line): the entries in the order of their id, 5,000 at a time.
DO $$ DECLARE batch TEXT[]; last_id TEXT := ''; BEGIN LOOP SELECT array_agg(b."id" ORDER BY b."id") INTO batch FROM (SELECT "id" FROM "Transcription" WHERE "id" > last_id ORDER BY "id" LIMIT 5000) AS b; EXIT WHEN batch IS NULL; UPDATE "Transcription" SET "lexemes" = verbatim_entry_lexemes("transcriptId", "userId") WHERE "id" = ANY (batch) AND "transcriptId" IS NOT NULL AND "lexemes" = ''::tsvector; last_id := batch[array_length(batch, 1)]; COMMIT; END LOOP; END $$;

DROP INDEX CONCURRENTLY IF EXISTS "Transcription_lexemes_idx";
CREATE INDEX CONCURRENTLY "Transcription_lexemes_idx" ON "Transcription" USING GIN ("lexemes");
