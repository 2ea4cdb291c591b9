-- A correction saved makes its transcript due again at the account's export destinations (verbatim_exports_enqueue).
CREATE OR REPLACE TRIGGER "TranscriptRevision_exports"
AFTER INSERT ON "TranscriptRevision"
FOR EACH ROW EXECUTE FUNCTION verbatim_exports_enqueue();
