-- A history entry that becomes done queues an alert check (verbatim_alerts_enqueue).
CREATE OR REPLACE TRIGGER "Transcription_alerts"
AFTER INSERT OR UPDATE OF "state", "transcriptId" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_alerts_enqueue();
