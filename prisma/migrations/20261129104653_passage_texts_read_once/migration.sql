-- prisma/sql/functions/verbatim_passage_segments.sql
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

-- prisma/sql/functions/verbatim_passages_text.sql
-- The texts of passages `pids` (a transcript's or a correction's) as verbatim_passage_segments spells them, each
-- transcript's or correction's segments read once for all its passages among them (one range from the first to the
-- last), not once a passage: a correction's segments are one stored value of megabytes, read whole when read.
CREATE OR REPLACE FUNCTION verbatim_passages_text(pids BIGINT[]) RETURNS TABLE (pid BIGINT, text TEXT)
LANGUAGE sql STABLE AS $$
  WITH p AS MATERIALIZED (
    SELECT tp."pid", tp."transcriptId" AS tid, '' AS rid, tp."segFrom" AS lo, tp."segTo" AS hi
    FROM "TranscriptPassage" tp WHERE tp."pid" = ANY (pids)
    UNION ALL
    SELECT rp."pid", r."transcriptId", r."id", rp."segFrom", rp."segTo"
    FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId" WHERE rp."pid" = ANY (pids)
  ), seg AS MATERIALIZED (
    SELECT src.tid, src.rid, s.idx, s.text
    FROM (SELECT p.tid, p.rid, min(p.lo) AS lo, max(p.hi) AS hi FROM p GROUP BY p.tid, p.rid) AS src
    JOIN "Transcript" t ON t."id" = src.tid
    LEFT JOIN "TranscriptRevision" rev ON rev."id" = src.rid
    CROSS JOIN LATERAL verbatim_segments_range(coalesce(rev."segments", t."segments"), greatest(src.lo, 0), src.hi) AS s
  )
  SELECT p."pid", array_to_string(array_agg(seg.text ORDER BY seg.idx), ' ')
  FROM p CROSS JOIN LATERAL generate_series(p.lo, p.hi) AS i(idx)
  LEFT JOIN seg ON seg.tid = p.tid AND seg.rid = p.rid AND seg.idx = i.idx
  GROUP BY p."pid"
$$;
