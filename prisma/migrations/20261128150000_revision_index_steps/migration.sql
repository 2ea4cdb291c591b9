-- A correction is indexed for search after its save, in steps of bounded length (lib/edits/revision-index.ts),
-- and served once every passage is written: "indexedAt". The newest correction of each (user, transcript) was
-- indexed by the trigger this migration drops, so it is served.
ALTER TABLE "TranscriptRevision" ADD COLUMN "indexedAt" TIMESTAMP(3);
ALTER TABLE "RevisionPassage" ADD COLUMN "body" TEXT;

UPDATE "TranscriptRevision" r SET "indexedAt" = r."createdAt"
WHERE NOT EXISTS (SELECT 1 FROM "TranscriptRevision" n
                  WHERE n."userId" = r."userId" AND n."transcriptId" = r."transcriptId"
                    AND (n."createdAt", n."id") > (r."createdAt", r."id"));

DROP TRIGGER IF EXISTS "TranscriptRevision_search_index" ON "TranscriptRevision";
DROP FUNCTION IF EXISTS verbatim_revision_search_trigger();
DROP FUNCTION IF EXISTS verbatim_index_revision(TEXT, TEXT, JSONB);

-- prisma/sql/functions/verbatim_search_post.sql
-- The postings of the passages whose ids are given (either table's, a correction's before it is served too): their new
-- terms numbered, then one posting per term, its impact computed again where it exists (a transcript's new
-- title). Set-based: the ids are joined, not tested one by one with = ANY (a transcript of many passages, or
-- every passage when a migration posts them all, costs a scan, not ids × passages), and each transcript's title
-- is read once, not once per passage. Separate statements: the postings', with its own snapshot, sees terms a
-- concurrent writer numbered meanwhile. The vocabulary's lock, shared until commit: a prune of unused terms
-- (lib/search/prune-terms.ts) waits, and so never deletes a term numbered here before its postings are written.
-- Without bitmap scans: a term is looked up by its unique btree index, where the planner, on a vocabulary with
-- young statistics (a fresh database), chose the trigram GIN index for `=`, many times slower per term.
CREATE OR REPLACE FUNCTION verbatim_search_post(pids BIGINT[]) RETURNS VOID
LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('search-terms'));
  -- New terms are added by one transaction at a time (the lock is held until commit): a term another
  -- transaction added and has not committed makes this insert wait for it, and two transactions that each
  -- posted several times (many transcripts in one statement, a title set after the store) could each wait for
  -- the other's terms (a deadlock on the vocabulary's unique index). Posting only known terms takes no lock.
  IF EXISTS (
    SELECT 1
    FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
    JOIN (SELECT tp."pid", tp."transcriptId", tp."config", tp."tsv" FROM "TranscriptPassage" tp
          UNION ALL
          SELECT rp."pid", r."transcriptId", rp."config", rp."tsv"
          FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId") p ON p."pid" = u."pid"
    CROSS JOIN LATERAL unnest(p."tsv") AS w
    WHERE NOT EXISTS (SELECT 1 FROM "SearchTerm" st WHERE st."term" = w.lexeme)
  ) THEN
    PERFORM pg_advisory_xact_lock(hashtext('search-terms-new'));
    INSERT INTO "SearchTerm" ("term")
    SELECT DISTINCT w.lexeme
    FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
    JOIN (SELECT tp."pid", tp."transcriptId", tp."config", tp."tsv" FROM "TranscriptPassage" tp
          UNION ALL
          SELECT rp."pid", r."transcriptId", rp."config", rp."tsv"
          FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId") p ON p."pid" = u."pid"
    CROSS JOIN LATERAL unnest(p."tsv") AS w
    ORDER BY 1
    ON CONFLICT ("term") DO NOTHING;
  END IF;
  WITH passages AS MATERIALIZED (
    SELECT p."pid", p."transcriptId", p."config", p."tsv"
    FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
    JOIN (SELECT tp."pid", tp."transcriptId", tp."config", tp."tsv" FROM "TranscriptPassage" tp
          UNION ALL
          SELECT rp."pid", r."transcriptId", rp."config", rp."tsv"
          FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId") p ON p."pid" = u."pid"
  ), titles AS MATERIALIZED (
    SELECT k."transcriptId", k."config",
           tsvector_to_array(to_tsvector(k."config"::regconfig, coalesce(t."title", ''))
                             || to_tsvector('simple', verbatim_cjk_bigrams(t."title"))) AS words
    FROM (SELECT DISTINCT "transcriptId", "config" FROM passages) AS k
    JOIN "Transcript" t ON t."id" = k."transcriptId"
  )
  INSERT INTO "SearchPosting" ("pid", "termId", "impact")
  SELECT p."pid", st."id", verbatim_search_impact(coalesce(cardinality(w.positions), 1), d.dl, w.lexeme = ANY (tl.words))
  FROM passages p
  JOIN titles tl ON tl."transcriptId" = p."transcriptId" AND tl."config" = p."config"
  CROSS JOIN LATERAL (SELECT coalesce(sum(coalesce(cardinality(x.positions), 1)), 0)::int AS dl FROM unnest(p."tsv") AS x) AS d
  CROSS JOIN LATERAL unnest(p."tsv") AS w
  JOIN "SearchTerm" st ON st."term" = w.lexeme
  ON CONFLICT ("pid", "termId") DO UPDATE SET "impact" = EXCLUDED."impact";
END
$$;

-- prisma/sql/functions/verbatim_transcript_title_posted.sql
-- A transcript's title changed: the title part of its passages' impacts (its corrections' too, those still being
-- indexed included).
CREATE OR REPLACE FUNCTION verbatim_transcript_title_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(
    SELECT tp."pid" FROM "TranscriptPassage" tp WHERE tp."transcriptId" = NEW."id"
    UNION ALL
    SELECT rp."pid" FROM "TranscriptRevision" r JOIN "RevisionPassage" rp ON rp."revisionId" = r."id" WHERE r."transcriptId" = NEW."id")); RETURN NULL; END
$$;

-- prisma/sql/functions/verbatim_index_revision_step.sql
-- One step of indexing a saved correction for search, in a transaction of its own (lib/edits/revision-index.ts),
-- so that other statements run between steps on a database that runs one at a time (the embedded one). The first
-- step cuts the correction into passages as verbatim_index_transcript cuts a transcript, each kept with its text
-- ("body") and no words yet: one pass over the stored segments, whose cost is their size. Each step then indexes
-- the next passages in order (their words, and their postings by verbatim_search_post) until `budget_ms` has
-- passed, at least one a step. Once every passage is indexed the correction becomes the one search serves for its
-- author ("indexedAt", which the view "SearchPassage" reads) in place of the one served before, in the same
-- transaction: search never sees half of it. Answers 'more', 'done', or 'stale': the correction is gone, or a newer
-- one of the same transcript was saved (that one is indexed instead).
CREATE OR REPLACE FUNCTION verbatim_index_revision_step(rid TEXT, budget_ms INTEGER) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  rev RECORD;
  cfg TEXT;
  p RECORD;
BEGIN
  -- Two indexers of one correction (two processes; a save and the sweep at start) take turns.
  SELECT r."id", r."userId", r."transcriptId", r."createdAt", r."indexedAt" INTO rev
  FROM "TranscriptRevision" r WHERE r."id" = rid FOR UPDATE;
  IF NOT FOUND THEN RETURN 'stale'; END IF;
  IF rev."indexedAt" IS NOT NULL THEN RETURN 'done'; END IF;
  IF EXISTS (SELECT 1 FROM "TranscriptRevision" n
             WHERE n."userId" = rev."userId" AND n."transcriptId" = rev."transcriptId"
               AND (n."createdAt", n."id") > (rev."createdAt", rev."id")) THEN
    RETURN 'stale';
  END IF;
  cfg := verbatim_search_config((SELECT t."lang" FROM "Transcript" t WHERE t."id" = rev."transcriptId"));
  IF NOT EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."revisionId" = rid) THEN
    INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv", "body")
    SELECT rid, w.seq, min(w.idx), max(w.idx), min(w.start_s), max(greatest(w.end_s, w.start_s)), cfg, ''::tsvector,
           string_agg(w.text, ' ' ORDER BY w.idx)
    FROM (
      SELECT s.*, (coalesce(sum(char_length(s.text) + 1) OVER (ORDER BY s.idx ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 200)::int AS seq
      FROM "TranscriptRevision" r CROSS JOIN LATERAL verbatim_segments(r."segments") AS s
      WHERE r."id" = rid
    ) AS w
    GROUP BY w.seq;
    IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond'
       AND EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."revisionId" = rid) THEN
      RETURN 'more';
    END IF;
  END IF;
  FOR p IN
    SELECT rp."pid", rp."body" FROM "RevisionPassage" rp
    WHERE rp."revisionId" = rid AND rp."body" IS NOT NULL ORDER BY rp."seq"
  LOOP
    UPDATE "RevisionPassage"
    SET "tsv" = to_tsvector(cfg::regconfig, p."body") || to_tsvector('simple', verbatim_cjk_bigrams(p."body")), "body" = NULL
    WHERE "pid" = p."pid";
    PERFORM verbatim_search_post(ARRAY[p."pid"]);
    IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond'
       AND EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."revisionId" = rid AND rp."body" IS NOT NULL) THEN
      RETURN 'more';
    END IF;
  END LOOP;
  UPDATE "TranscriptRevision" SET "indexedAt" = NULL
  WHERE "userId" = rev."userId" AND "transcriptId" = rev."transcriptId" AND "id" <> rid AND "indexedAt" IS NOT NULL;
  UPDATE "TranscriptRevision" SET "indexedAt" = now() WHERE "id" = rid;
  RETURN 'done';
END
$$;

-- prisma/sql/functions/verbatim_unindex_revisions_step.sql
-- One step of removing the passages search no longer serves (lib/edits/revision-index.ts): those of a
-- correction that is not served ("indexedAt" NULL) and that a newer correction of the same transcript replaced
-- (the one served before it, or one replaced before it was indexed). One passage at a time (its postings by the
-- passages' trigger) until `budget_ms` has passed, at least one. Answers how many it removed (0: none is left).
CREATE OR REPLACE FUNCTION verbatim_unindex_revisions_step(budget_ms INTEGER) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  removed INTEGER := 0;
  stale TEXT;
  n INTEGER;
BEGIN
  FOR stale IN
    SELECT r."id" FROM "TranscriptRevision" r
    WHERE r."indexedAt" IS NULL
      AND EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."revisionId" = r."id")
      AND EXISTS (SELECT 1 FROM "TranscriptRevision" nr
                  WHERE nr."userId" = r."userId" AND nr."transcriptId" = r."transcriptId"
                    AND (nr."createdAt", nr."id") > (r."createdAt", r."id"))
  LOOP
    LOOP
      DELETE FROM "RevisionPassage" WHERE "revisionId" = stale
        AND "seq" = (SELECT min(rp."seq") FROM "RevisionPassage" rp WHERE rp."revisionId" = stale);
      GET DIAGNOSTICS n = ROW_COUNT;
      EXIT WHEN n = 0;
      removed := removed + n;
      IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond' THEN RETURN removed; END IF;
    END LOOP;
  END LOOP;
  RETURN removed;
END
$$;

-- prisma/sql/views/SearchPassage.sql
-- What search reads (lib/search): every transcript's passages (editorId NULL) and every served correction's
-- (editorId = its author, revisionId set), one shape, with each passage's id (pid: its postings, "SearchPosting").
-- A correction is served once all its passages are written ("indexedAt", lib/edits/revision-index.ts): until
-- then the one served before it (or the transcript's own passages). Who may see which is decided when searching.
CREATE OR REPLACE VIEW "SearchPassage" AS
  SELECT p."transcriptId", p."seq", p."segFrom", p."segTo", p."start", p."end", p."config", p."tsv",
         NULL::text AS "editorId", NULL::text AS "revisionId", p."pid"
  FROM "TranscriptPassage" p
  UNION ALL
  SELECT r."transcriptId", rp."seq", rp."segFrom", rp."segTo", rp."start", rp."end", rp."config", rp."tsv",
         r."userId" AS "editorId", r."id" AS "revisionId", rp."pid"
  FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
  WHERE r."indexedAt" IS NOT NULL;


-- The corrections left to index or to drop from search: found without reading every correction.
CREATE INDEX "TranscriptRevision_unindexed" ON "TranscriptRevision" ("userId", "transcriptId") WHERE "indexedAt" IS NULL;
