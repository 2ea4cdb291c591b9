-- Passages of a correction deleted: their postings go with them (verbatim_passages_unposted).
CREATE OR REPLACE TRIGGER "RevisionPassage_unposted" AFTER DELETE ON "RevisionPassage"
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_unposted();
