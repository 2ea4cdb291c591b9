-- The entries' "searchText" follows their transcript's title and channel.
CREATE OR REPLACE TRIGGER "Transcript_history_searchText"
AFTER UPDATE OF "title", "channel" ON "Transcript"
FOR EACH ROW WHEN (OLD."title" IS DISTINCT FROM NEW."title" OR OLD."channel" IS DISTINCT FROM NEW."channel")
EXECUTE FUNCTION verbatim_transcript_search_text_changed();
