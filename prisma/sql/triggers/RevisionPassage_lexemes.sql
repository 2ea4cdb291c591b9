-- Passages written for corrections: their authors' entries' "lexemes", once per statement.
CREATE OR REPLACE TRIGGER "RevisionPassage_lexemes" AFTER INSERT ON "RevisionPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_revision_passages_lexemes();
