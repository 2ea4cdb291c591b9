-- Passages of a transcript deleted: their postings go with them (verbatim_passages_unposted).
CREATE OR REPLACE TRIGGER "TranscriptPassage_unposted" AFTER DELETE ON "TranscriptPassage"
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_unposted();
