-- The words of a transcript's passages and of the user's current correction's passages, without positions,
-- each after the user's key and a space (no word holds a space): what a history entry's "lexemes" holds.
-- A superset, never less: search still matches each passage of the entries found. The key is computed once
-- (OFFSET 0 keeps it from being computed again for each word), each distinct word once.
CREATE OR REPLACE FUNCTION verbatim_entry_lexemes(transcript_id TEXT, user_id TEXT) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(k.key || ' ' || d.lexeme)), ''::tsvector)
  FROM (SELECT verbatim_library_key($2) AS key OFFSET 0) AS k,
       (SELECT DISTINCT w.lexeme FROM (
          SELECT p."tsv" FROM "TranscriptPassage" p WHERE p."transcriptId" = $1
          UNION ALL
          SELECT rp."tsv" FROM "TranscriptRevision" r JOIN "RevisionPassage" rp ON rp."revisionId" = r."id"
          WHERE r."userId" = $2 AND r."transcriptId" = $1
        ) AS p CROSS JOIN LATERAL unnest(p."tsv") AS w) AS d
$$;
