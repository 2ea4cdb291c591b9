-- Replaces one revision's passages with those of its segments (the body of verbatim_index_transcript): a
-- user's correction is theirs alone, so its words are indexed apart from the shared transcript's.
CREATE OR REPLACE FUNCTION verbatim_index_revision(rid TEXT, lang TEXT, segments JSONB) RETURNS VOID
LANGUAGE sql AS $$
  DELETE FROM "RevisionPassage" WHERE "revisionId" = rid;
  INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv")
  SELECT rid, p.seq, p.seg_from, p.seg_to, p.first_start, p.last_end, p.cfg,
         to_tsvector(p.cfg::regconfig, p.body) || to_tsvector('simple', verbatim_cjk_bigrams(p.body))
  FROM (
    SELECT w.seq, verbatim_search_config(lang) AS cfg, min(w.idx) AS seg_from, max(w.idx) AS seg_to,
           min(w.start_s) AS first_start, max(greatest(w.end_s, w.start_s)) AS last_end,
           string_agg(w.text, ' ' ORDER BY w.idx) AS body
    FROM (
      SELECT s.*, (coalesce(sum(char_length(s.text) + 1) OVER (ORDER BY s.idx ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 200)::int AS seq
      FROM verbatim_segments(segments) AS s
    ) AS w
    GROUP BY w.seq
  ) AS p
$$;
