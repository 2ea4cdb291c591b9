-- One step of indexing a saved correction for search, in a transaction of its own (lib/edits/revision-index.ts):
-- its next passages (whole segments, in order, a passage closed once it holds 200 characters, as
-- verbatim_index_transcript cuts a transcript) are written, their postings by the passages' trigger, until
-- `budget_ms` has passed, at least one a step, so that other statements run between steps on a database that runs
-- one at a time (the embedded one). A step reads only the segments it cuts (by index, after the last passage
-- written). Once every passage is written the correction becomes the one search serves for its author
-- ("indexedAt", which the view "SearchPassage" reads) in place of the one served before, in the same transaction:
-- search never sees half of it. Answers 'more', 'done', or 'stale': the correction is gone, or a newer one of the
-- same transcript was saved (that one is indexed instead).
CREATE OR REPLACE FUNCTION verbatim_index_revision_step(rid TEXT, budget_ms INTEGER) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  rev RECORD;
  segs JSONB;
  total INTEGER;
  cfg TEXT;
  i INTEGER;
  next_seq INTEGER;
  seg_from INTEGER;
  first_start DOUBLE PRECISION;
  last_end DOUBLE PRECISION;
  body TEXT;
  chars INTEGER;
  item JSONB;
  piece TEXT;
  s DOUBLE PRECISION;
  e DOUBLE PRECISION;
BEGIN
  -- Two indexers of one correction (two processes; a save and the sweep at start) take turns.
  SELECT r."id", r."userId", r."transcriptId", r."createdAt", r."indexedAt" INTO rev
  FROM "TranscriptRevision" r WHERE r."id" = rid FOR UPDATE;
  IF NOT FOUND THEN RETURN 'stale'; END IF;
  IF rev."indexedAt" IS NOT NULL THEN RETURN 'done'; END IF;
  IF EXISTS (SELECT 1 FROM "TranscriptRevision" n
             WHERE n."userId" = rev."userId" AND n."transcriptId" = rev."transcriptId"
               AND (n."createdAt", n."id") > (rev."createdAt", rev."id")) THEN
    RETURN 'stale';
  END IF;
  -- Read whole once (|| makes a value of its own): a stored value would be read from storage at each `->`.
  SELECT CASE WHEN jsonb_typeof(r."segments") = 'array' THEN r."segments" || '[]'::jsonb ELSE '[]'::jsonb END INTO segs
  FROM "TranscriptRevision" r WHERE r."id" = rid;
  total := jsonb_array_length(segs);
  cfg := verbatim_search_config((SELECT t."lang" FROM "Transcript" t WHERE t."id" = rev."transcriptId"));
  SELECT rp."seq" + 1, rp."segTo" + 1 INTO next_seq, i
  FROM "RevisionPassage" rp WHERE rp."revisionId" = rid ORDER BY rp."seq" DESC LIMIT 1;
  IF NOT FOUND THEN next_seq := 0; i := 0; END IF;
  WHILE i < total LOOP
    seg_from := i;
    body := NULL;
    chars := 0;
    LOOP
      -- Each segment read as verbatim_segments reads it.
      item := segs -> i;
      piece := regexp_replace(coalesce(item ->> 'text', ''), '[\ue000\ue001]', '', 'g');
      s := CASE WHEN jsonb_typeof(item -> 'start') = 'number' THEN (item ->> 'start')::float8 ELSE 0 END;
      e := greatest(CASE WHEN jsonb_typeof(item -> 'end') = 'number' THEN (item ->> 'end')::float8 ELSE 0 END, s);
      IF body IS NULL THEN
        body := piece; first_start := s; last_end := e;
      ELSE
        body := body || ' ' || piece; first_start := least(first_start, s); last_end := greatest(last_end, e);
      END IF;
      chars := chars + char_length(piece) + 1;
      i := i + 1;
      EXIT WHEN i >= total OR chars >= 200;
    END LOOP;
    INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv")
    VALUES (rid, next_seq, seg_from, i - 1, first_start, last_end, cfg,
            to_tsvector(cfg::regconfig, body) || to_tsvector('simple', verbatim_cjk_bigrams(body)));
    next_seq := next_seq + 1;
    IF i < total AND clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond' THEN RETURN 'more'; END IF;
  END LOOP;
  UPDATE "TranscriptRevision" SET "indexedAt" = NULL
  WHERE "userId" = rev."userId" AND "transcriptId" = rev."transcriptId" AND "id" <> rid AND "indexedAt" IS NOT NULL;
  UPDATE "TranscriptRevision" SET "indexedAt" = now() WHERE "id" = rid;
  RETURN 'done';
END
$$;
