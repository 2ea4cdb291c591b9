-- A followed show's item marked done queues an alert check (verbatim_alerts_enqueue).
CREATE OR REPLACE TRIGGER "FollowItem_alerts"
AFTER INSERT OR UPDATE OF "status", "transcriptId" ON "FollowItem"
FOR EACH ROW EXECUTE FUNCTION verbatim_alerts_enqueue();
