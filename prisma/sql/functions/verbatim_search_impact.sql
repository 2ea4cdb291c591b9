-- A term's impact in a passage: BM25's term frequency part (k1 = 1.2, b = 0.75) with the passage's length dl in
-- indexed words against a fixed average of 20 (a passage is about 200 characters: no global figure to keep
-- current), plus 1 when the transcript's title holds the term. Used by verbatim_search_post alone.
CREATE OR REPLACE FUNCTION verbatim_search_impact(tf INTEGER, dl INTEGER, in_title BOOLEAN) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ($1 * 2.2 / ($1 + 1.2 * (0.25 + 0.75 * $2 / 20.0)) + CASE WHEN $3 THEN 1.0 ELSE 0.0 END)::real
$$;
