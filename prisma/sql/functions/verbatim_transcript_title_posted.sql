-- A transcript's title changed: the title part of its passages' impacts (its corrections' too).
CREATE OR REPLACE FUNCTION verbatim_transcript_title_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(SELECT p."pid" FROM "SearchPassage" p WHERE p."transcriptId" = NEW."id")); RETURN NULL; END
$$;
