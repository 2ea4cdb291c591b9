-- Passages deleted (cut again, a correction replaced, a transcript or revision deleted): their postings.
CREATE OR REPLACE FUNCTION verbatim_passages_unposted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPosting" sp WHERE sp."pid" IN (SELECT r."pid" FROM removed r); RETURN NULL; END
$$;
