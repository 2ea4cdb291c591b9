-- A transcript cut again: the "lexemes" of every user's entries of it (statement trigger
-- "TranscriptPassage_lexemes").
CREATE OR REPLACE FUNCTION verbatim_transcript_passages_lexemes() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" h SET "lexemes" = verbatim_entry_lexemes(h."transcriptId", h."userId")
  WHERE h."transcriptId" IN (SELECT DISTINCT a."transcriptId" FROM added a); RETURN NULL; END
$$;
