-- Passages written for transcripts: their entries' "lexemes", once per statement.
CREATE OR REPLACE TRIGGER "TranscriptPassage_lexemes" AFTER INSERT ON "TranscriptPassage"
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION verbatim_transcript_passages_lexemes();
