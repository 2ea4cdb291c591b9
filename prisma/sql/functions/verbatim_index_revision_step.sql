-- One step of indexing a saved correction for search, in a transaction of its own (lib/edits/revision-index.ts):
-- its next passages, cut as verbatim_index_transcript cuts a transcript, are written (their postings by the
-- passages' trigger) until `budget_ms` has passed, at least one a step, so that other statements run between
-- steps on a database that runs one at a time (the embedded one). Once every passage is written the correction
-- becomes the one search serves for its author ("indexedAt", which the view "SearchPassage" reads) in place of
-- the one served before, in the same transaction: search never sees half of it. Answers 'more', 'done', or
-- 'stale': the correction is gone, or a newer one of the same transcript was saved (that one is indexed instead).
CREATE OR REPLACE FUNCTION verbatim_index_revision_step(rid TEXT, budget_ms INTEGER) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  rev RECORD;
  cfg TEXT;
  next_seq INTEGER;
  p RECORD;
BEGIN
  -- Two indexers of one correction (two processes; a save and the sweep at start) take turns.
  SELECT r."id", r."userId", r."transcriptId", r."createdAt", r."segments", r."indexedAt" INTO rev
  FROM "TranscriptRevision" r WHERE r."id" = rid FOR UPDATE;
  IF NOT FOUND THEN RETURN 'stale'; END IF;
  IF rev."indexedAt" IS NOT NULL THEN RETURN 'done'; END IF;
  IF EXISTS (SELECT 1 FROM "TranscriptRevision" n
             WHERE n."userId" = rev."userId" AND n."transcriptId" = rev."transcriptId"
               AND (n."createdAt", n."id") > (rev."createdAt", rev."id")) THEN
    RETURN 'stale';
  END IF;
  cfg := verbatim_search_config((SELECT t."lang" FROM "Transcript" t WHERE t."id" = rev."transcriptId"));
  SELECT coalesce(max(rp."seq") + 1, 0) INTO next_seq FROM "RevisionPassage" rp WHERE rp."revisionId" = rid;
  FOR p IN
    SELECT w.seq, min(w.idx) AS seg_from, max(w.idx) AS seg_to, min(w.start_s) AS first_start,
           max(greatest(w.end_s, w.start_s)) AS last_end, string_agg(w.text, ' ' ORDER BY w.idx) AS body
    FROM (
      SELECT s.*, (coalesce(sum(char_length(s.text) + 1) OVER (ORDER BY s.idx ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 200)::int AS seq
      FROM verbatim_segments(rev."segments") AS s
    ) AS w
    WHERE w.seq >= next_seq
    GROUP BY w.seq
    ORDER BY w.seq
  LOOP
    INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv")
    VALUES (rid, p.seq, p.seg_from, p.seg_to, p.first_start, p.last_end, cfg,
            to_tsvector(cfg::regconfig, p.body) || to_tsvector('simple', verbatim_cjk_bigrams(p.body)));
    IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond' THEN RETURN 'more'; END IF;
  END LOOP;
  UPDATE "TranscriptRevision" SET "indexedAt" = NULL
  WHERE "userId" = rev."userId" AND "transcriptId" = rev."transcriptId" AND "id" <> rid AND "indexedAt" IS NOT NULL;
  UPDATE "TranscriptRevision" SET "indexedAt" = now() WHERE "id" = rid;
  RETURN 'done';
END
$$;
