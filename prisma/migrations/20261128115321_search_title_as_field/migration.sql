-- prisma/sql/functions/verbatim_search_impact.sql
-- A term's impact in a passage: BM25F's saturated term frequency (k1 = 1.2, b = 0.75) over two fields, the
-- passage's words and the transcript's title, the title's match weighing 0.5 of one occurrence and added to tf
-- before the saturation. The passage's length dl in indexed words against a fixed average of 20 (a passage is
-- about 200 characters: no global figure to keep current). So a title never lifts a passage that says the term
-- once above one of the same length that says it twice: 1.5 occurrences are less than 2 (at dl 20: 1.22 against
-- 1.38; three times 1.57). Used by verbatim_search_post alone.
CREATE OR REPLACE FUNCTION verbatim_search_impact(tf INTEGER, dl INTEGER, in_title BOOLEAN) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (f * 2.2 / (f + 1.2 * (0.25 + 0.75 * $2 / 20.0)))::real
  FROM (SELECT $1 + CASE WHEN $3 THEN 0.5 ELSE 0.0 END AS f) AS t
$$;

-- Every existing posting's impact computed again by the new function (the postings of both passage tables).
SELECT verbatim_search_post(ARRAY(SELECT "pid" FROM "TranscriptPassage"));
SELECT verbatim_search_post(ARRAY(SELECT "pid" FROM "RevisionPassage"));
