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
