-- Keeps a history entry's "searchText" current when the entry is written (trigger "Transcription_searchText").
CREATE OR REPLACE FUNCTION verbatim_history_search_text_row() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchText" := verbatim_history_search_text(NEW."videoId", NEW."title", NEW."transcriptId");
  RETURN NEW;
END
$$;
