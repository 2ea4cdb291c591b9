-- A publication that goes live queues an alert check (verbatim_alerts_enqueue).
CREATE OR REPLACE TRIGGER "Publication_alerts"
AFTER INSERT OR UPDATE OF "publishedAt" ON "Publication"
FOR EACH ROW EXECUTE FUNCTION verbatim_alerts_enqueue();
