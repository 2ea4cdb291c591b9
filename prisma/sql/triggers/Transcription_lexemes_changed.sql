-- An entry moved to another transcript or user gets its "lexemes" again.
CREATE OR REPLACE TRIGGER "Transcription_lexemes_changed" BEFORE UPDATE OF "transcriptId", "userId" ON "Transcription"
FOR EACH ROW WHEN (OLD."transcriptId" IS DISTINCT FROM NEW."transcriptId" OR OLD."userId" IS DISTINCT FROM NEW."userId")
EXECUTE FUNCTION verbatim_entry_lexemes_row();
