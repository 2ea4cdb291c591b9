-- What the history's `q` matches (lib/transcripts/list-transcriptions.ts): the entry's video id and title, its
-- transcript's title and channel, one per line, in lower case. The filter matches it with LIKE and lower() of
-- the pattern, which is what ILIKE does in a multibyte database, without lowering every matched row on each read.
-- $1, $2, $3 are the parameters (a bare "title" would be the transcript's column).
CREATE OR REPLACE FUNCTION verbatim_history_search_text(video_id TEXT, title TEXT, transcript_id TEXT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(E'\n', $1, $2, t."title", t."channel"))
  FROM (SELECT 1) AS one LEFT JOIN "Transcript" t ON t."id" = $3
$$;
