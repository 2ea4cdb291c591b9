-- A saved correction: the passages of the user's older revisions of that transcript are dropped (only the
-- current one is searched) and the new one's are cut (trigger "TranscriptRevision_search_index"). Deleting a
-- revision drops its own passages by cascade.
CREATE OR REPLACE FUNCTION verbatim_revision_search_trigger() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "RevisionPassage" rp USING "TranscriptRevision" r
  WHERE rp."revisionId" = r."id" AND r."userId" = NEW."userId" AND r."transcriptId" = NEW."transcriptId"
    AND r."id" <> NEW."id";
  PERFORM verbatim_index_revision(NEW."id", (SELECT t."lang" FROM "Transcript" t WHERE t."id" = NEW."transcriptId"), NEW."segments");
  RETURN NULL;
END
$$;
