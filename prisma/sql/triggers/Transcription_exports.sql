-- A history entry that becomes done queues its transcript for the account's export destinations (verbatim_exports_enqueue).
CREATE OR REPLACE TRIGGER "Transcription_exports"
AFTER INSERT OR UPDATE OF "state", "transcriptId" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_exports_enqueue();
