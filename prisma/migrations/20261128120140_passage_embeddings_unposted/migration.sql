-- prisma/sql/functions/verbatim_passages_unposted.sql
-- Passages deleted (cut again, a correction replaced, a transcript or revision deleted): their postings and their
-- vectors.
CREATE OR REPLACE FUNCTION verbatim_passages_unposted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPosting" sp WHERE sp."pid" IN (SELECT r."pid" FROM removed r);
  DELETE FROM "PassageEmbedding" e WHERE e."pid" IN (SELECT r."pid" FROM removed r);
  RETURN NULL;
END
$$;
