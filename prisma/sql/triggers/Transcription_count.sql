-- "HistoryCount" follows every insert, delete and move of a history entry.
CREATE OR REPLACE TRIGGER "Transcription_count"
AFTER INSERT OR DELETE OR UPDATE OF "userId", "platform", "state" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_history_count();
