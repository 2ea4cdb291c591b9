-- A transcript's title or channel changed: the "searchText" of every entry of it (trigger
-- "Transcript_history_searchText").
CREATE OR REPLACE FUNCTION verbatim_transcript_search_text_changed() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" SET "searchText" = verbatim_history_search_text("videoId", "title", "transcriptId")
  WHERE "transcriptId" = NEW."id";
  RETURN NULL;
END
$$;
