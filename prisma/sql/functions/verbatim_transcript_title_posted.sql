-- A transcript's title changed: the title part of its passages' impacts (its corrections' too, those still being
-- indexed included).
CREATE OR REPLACE FUNCTION verbatim_transcript_title_posted() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verbatim_search_post(ARRAY(
    SELECT tp."pid" FROM "TranscriptPassage" tp WHERE tp."transcriptId" = NEW."id"
    UNION ALL
    SELECT rp."pid" FROM "TranscriptRevision" r JOIN "RevisionPassage" rp ON rp."revisionId" = r."id" WHERE r."transcriptId" = NEW."id")); RETURN NULL; END
$$;
