-- An entry's "lexemes" when it is written or its transcript or user changes (triggers "Transcription_lexemes",
-- "Transcription_lexemes_changed").
CREATE OR REPLACE FUNCTION verbatim_entry_lexemes_row() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."lexemes" := CASE WHEN NEW."transcriptId" IS NULL THEN ''::tsvector
                        ELSE verbatim_entry_lexemes(NEW."transcriptId", NEW."userId") END; RETURN NEW; END
$$;
