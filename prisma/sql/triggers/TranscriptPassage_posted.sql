-- A transcript cut into passages: their postings, once per statement (verbatim_passages_posted).
CREATE OR REPLACE TRIGGER "TranscriptPassage_posted" AFTER INSERT ON "TranscriptPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_posted();
