-- Each saved correction is cut into passages (verbatim_revision_search_trigger).
CREATE OR REPLACE TRIGGER "TranscriptRevision_search_index" AFTER INSERT ON "TranscriptRevision"
FOR EACH ROW EXECUTE FUNCTION verbatim_revision_search_trigger();
