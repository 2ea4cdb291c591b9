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
