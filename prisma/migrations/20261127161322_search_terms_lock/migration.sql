-- prisma/sql/functions/verbatim_search_post.sql
-- The postings of the passages whose ids are given (either table's, read through "SearchPassage"): their terms
-- numbered (in order, so that two writers never wait on each other's terms crosswise), then one posting per
-- term, its impact computed again where it exists (a transcript's new title). Set-based: the ids are joined, not
-- tested one by one with = ANY (a transcript of many passages, or every passage when a migration posts them all,
-- costs a scan, not ids × passages), and each transcript's title is read once, not once per passage. Two
-- statements, not one: the second, with its own snapshot, sees terms a concurrent writer numbered meanwhile. The
-- vocabulary's lock, shared until commit: a prune of unused terms (lib/search/prune-terms.ts) waits, and so never
-- deletes a term numbered here before its postings are written.
CREATE OR REPLACE FUNCTION verbatim_search_post(pids BIGINT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('search-terms'));
  INSERT INTO "SearchTerm" ("term")
  SELECT DISTINCT w.lexeme
  FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
  JOIN "SearchPassage" p ON p."pid" = u."pid"
  CROSS JOIN LATERAL unnest(p."tsv") AS w
  ORDER BY 1
  ON CONFLICT ("term") DO NOTHING;
  WITH passages AS MATERIALIZED (
    SELECT p."pid", p."transcriptId", p."config", p."tsv"
    FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
    JOIN "SearchPassage" p ON p."pid" = u."pid"
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
