-- A correction that search begins to serve queues an alert check (verbatim_alerts_enqueue).
CREATE OR REPLACE TRIGGER "TranscriptRevision_alerts"
AFTER INSERT OR UPDATE OF "indexedAt" ON "TranscriptRevision"
FOR EACH ROW EXECUTE FUNCTION verbatim_alerts_enqueue();
