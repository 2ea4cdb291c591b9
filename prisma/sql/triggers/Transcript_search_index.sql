-- A transcript's passages follow its segments and language (verbatim_transcript_search_trigger).
CREATE OR REPLACE TRIGGER "Transcript_search_index" AFTER INSERT OR UPDATE OF "segments", "lang" ON "Transcript"
FOR EACH ROW EXECUTE FUNCTION verbatim_transcript_search_trigger();
