-- A new entry gets its "lexemes" (verbatim_entry_lexemes_row).
CREATE OR REPLACE TRIGGER "Transcription_lexemes" BEFORE INSERT ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_entry_lexemes_row();
