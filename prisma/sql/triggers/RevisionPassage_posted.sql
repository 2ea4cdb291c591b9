-- A correction cut into passages: their postings, once per statement (verbatim_passages_posted).
CREATE OR REPLACE TRIGGER "RevisionPassage_posted" AFTER INSERT ON "RevisionPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_passages_posted();
