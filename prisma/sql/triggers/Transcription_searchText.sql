-- An entry's "searchText" follows its video id, title and transcript.
CREATE OR REPLACE TRIGGER "Transcription_searchText"
BEFORE INSERT OR UPDATE OF "videoId", "title", "transcriptId" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_history_search_text_row();
