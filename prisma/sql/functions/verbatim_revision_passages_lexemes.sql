-- A correction saved: the "lexemes" of its author's entries of that transcript (statement trigger
-- "RevisionPassage_lexemes").
CREATE OR REPLACE FUNCTION verbatim_revision_passages_lexemes() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Transcription" h SET "lexemes" = verbatim_entry_lexemes(h."transcriptId", h."userId")
  FROM (SELECT DISTINCT r."userId", r."transcriptId" FROM added a JOIN "TranscriptRevision" r ON r."id" = a."revisionId") AS c
  WHERE h."userId" = c."userId" AND h."transcriptId" = c."transcriptId"; RETURN NULL; END
$$;
