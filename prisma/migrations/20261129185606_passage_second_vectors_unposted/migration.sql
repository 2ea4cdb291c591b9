-- prisma/sql/functions/verbatim_passages_unposted.sql
-- Passages deleted (cut again, a correction replaced, a transcript or revision deleted): their postings and their
-- vectors (both stages'). The ids as an array (= ANY: an index scan of the key, or one pass with the ids hashed),
-- never a join with the transition table, which has no statistics: the planner once chose a nested loop scanning
-- every posting once per deleted passage.
CREATE OR REPLACE FUNCTION verbatim_passages_unposted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  gone BIGINT[] := ARRAY(SELECT r."pid" FROM removed r);
BEGIN
  DELETE FROM "SearchPosting" sp WHERE sp."pid" = ANY (gone);
  DELETE FROM "PassageEmbedding" e WHERE e."pid" = ANY (gone);
  DELETE FROM "PassageSecondVector" e WHERE e."pid" = ANY (gone);
  RETURN NULL;
END
$$;
