-- prisma/sql/functions/verbatim_cjk_bigrams.sql
-- The CJK bigrams of a text, space-separated: each run of Han, kana or Hangul characters gives its pairs of
-- adjacent characters ("比特币" → "比特 特币"); a run of one character gives that character. Chinese, Japanese
-- and Korean are written without spaces, so a query of two or more characters matches anywhere inside a run.
-- lib/search/cjk.ts makes the same tokens of a query. Each run is split into its characters once and paired
-- with the next (lead): substr(run, i, 2) walks a multibyte text from its start, so a run of n characters cost
-- n² steps.
CREATE OR REPLACE FUNCTION verbatim_cjk_bigrams(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(p.pair, ' ' ORDER BY m.n, p.i), '')
  FROM regexp_matches(coalesce(t, ''), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g')
    WITH ORDINALITY AS m(run_match, n),
  LATERAL (
    SELECT x.i, x.c || coalesce(x.nxt, '') AS pair, x.nxt IS NULL AND x.i > 1 AS past_last
    FROM (SELECT u.c, u.i, lead(u.c) OVER (ORDER BY u.i) AS nxt
          FROM unnest(regexp_split_to_array(m.run_match[1], '')) WITH ORDINALITY AS u(c, i)) AS x
  ) AS p
  WHERE NOT p.past_last
$$;

-- prisma/sql/functions/verbatim_passages_unposted.sql
-- Passages deleted (cut again, a correction replaced, a transcript or revision deleted): their postings. The
-- ids as an array (= ANY: an index scan of the postings' key, or one pass with the ids hashed), never a join
-- with the transition table, which has no statistics: the planner once chose a nested loop scanning every
-- posting once per deleted passage.
CREATE OR REPLACE FUNCTION verbatim_passages_unposted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPosting" sp WHERE sp."pid" = ANY (ARRAY(SELECT r."pid" FROM removed r)); RETURN NULL; END
$$;

-- prisma/sql/functions/verbatim_search_post.sql
-- The postings of the passages whose ids are given (either table's, read through "SearchPassage"): their new
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
    JOIN "SearchPassage" p ON p."pid" = u."pid"
    CROSS JOIN LATERAL unnest(p."tsv") AS w
    WHERE NOT EXISTS (SELECT 1 FROM "SearchTerm" st WHERE st."term" = w.lexeme)
  ) THEN
    PERFORM pg_advisory_xact_lock(hashtext('search-terms-new'));
    INSERT INTO "SearchTerm" ("term")
    SELECT DISTINCT w.lexeme
    FROM (SELECT DISTINCT unnest(pids) AS "pid") AS u
    JOIN "SearchPassage" p ON p."pid" = u."pid"
    CROSS JOIN LATERAL unnest(p."tsv") AS w
    ORDER BY 1
    ON CONFLICT ("term") DO NOTHING;
  END IF;
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
