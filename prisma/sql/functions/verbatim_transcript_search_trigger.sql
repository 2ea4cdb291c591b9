-- Cuts a transcript into passages again whenever its segments or language are stored or replaced, in the same
-- transaction (trigger "Transcript_search_index").
CREATE OR REPLACE FUNCTION verbatim_transcript_search_trigger() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."segments" = NEW."segments" AND OLD."lang" = NEW."lang" THEN
    RETURN NULL;
  END IF;
  PERFORM verbatim_index_transcript(NEW."id", NEW."lang", NEW."segments");
  RETURN NULL;
END
$$;
