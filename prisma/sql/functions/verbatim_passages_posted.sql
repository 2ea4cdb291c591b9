-- Passages written (a transcript cut, a correction saved): their postings, once per statement.
CREATE OR REPLACE FUNCTION verbatim_passages_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(SELECT a."pid" FROM added a)); RETURN NULL; END
$$;
