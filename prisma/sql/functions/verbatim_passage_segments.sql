-- A passage's segments `seg_from` to `seg_to` of a transcript's (or a correction's) segments, as the index read them
-- (verbatim_segments), in one row: their texts, starts and ends in order, and the passage's text, the texts joined
-- by a space. The one place a passage's text is spelled: what is embedded, what an answer shows and marks. Only
-- the passage's range is read (verbatim_segments_range), not the whole list of a correction of 50,000 segments.
CREATE OR REPLACE FUNCTION verbatim_passage_segments(segments JSONB, seg_from INTEGER, seg_to INTEGER) RETURNS TABLE (texts TEXT[], starts DOUBLE PRECISION[], ends DOUBLE PRECISION[], text TEXT)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(s.text ORDER BY s.idx), array_agg(s.start_s ORDER BY s.idx), array_agg(s.end_s ORDER BY s.idx),
         array_to_string(array_agg(s.text ORDER BY s.idx), ' ')
  FROM verbatim_segments_range(segments, greatest(seg_from, 0), seg_to) AS s
$$;
