-- A followed show's item marked done queues its transcript for the account's export destinations (verbatim_exports_enqueue).
CREATE OR REPLACE TRIGGER "FollowItem_exports"
AFTER INSERT OR UPDATE OF "status", "transcriptId" ON "FollowItem"
FOR EACH ROW EXECUTE FUNCTION verbatim_exports_enqueue();
