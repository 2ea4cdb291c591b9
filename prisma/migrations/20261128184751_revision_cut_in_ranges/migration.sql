-- prisma/sql/functions/verbatim_segments_range.sql
-- Segments `lo` to `hi` (indexes, both included) of a transcript's segments as verbatim_segments gives them, read
-- from the stored value once (a jsonpath range reaches each element directly): a correction is cut into passages a
-- range at a time, so a step's work is its range's, not the whole list's.
CREATE OR REPLACE FUNCTION verbatim_segments_range(segments JSONB, lo INTEGER, hi INTEGER) RETURNS TABLE (idx INTEGER, text TEXT, start_s DOUBLE PRECISION, end_s DOUBLE PRECISION)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (lo + x.ord - 1)::int,
         regexp_replace(coalesce(x.value ->> 'text', ''), '[\ue000\ue001]', '', 'g'),
         CASE WHEN jsonb_typeof(x.value -> 'start') = 'number' THEN (x.value ->> 'start')::float8 ELSE 0 END,
         CASE WHEN jsonb_typeof(x.value -> 'end') = 'number' THEN (x.value ->> 'end')::float8 ELSE 0 END
  FROM jsonb_path_query(segments, '$[$lo to $hi]', jsonb_build_object('lo', lo, 'hi', hi)) WITH ORDINALITY AS x(value, ord)
  WHERE lo <= hi
$$;

-- prisma/sql/functions/verbatim_index_revision_step.sql
-- One step of indexing a saved correction for search, in a transaction of its own (lib/edits/revision-index.ts),
-- so that other statements run between steps on a database that runs one at a time (the embedded one). A step
-- indexes the passages already cut, in order (their words, and their postings by verbatim_search_post), until
-- `budget_ms` has passed (at least one); once none is left it cuts the next range of segments into passages as
-- verbatim_index_transcript cuts a transcript, each kept with its text ("body") and no words yet: at most 1,000
-- segments and about 100,000 characters a step (verbatim_segments_range reads only those), so no step's work is the
-- whole correction's. A range's passages start at its first segment. Once every segment is cut and every passage
-- indexed the correction becomes the one search serves for its author ("indexedAt", which the view "SearchPassage"
-- reads) in place of the one served before, in the same transaction: search never sees half of it. Answers 'more',
-- 'done', or 'stale': the correction is gone, or a newer one of the same transcript was saved (that one is
-- indexed instead).
CREATE OR REPLACE FUNCTION verbatim_index_revision_step(rid TEXT, budget_ms INTEGER) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  rev RECORD;
  cfg TEXT;
  p RECORD;
  indexed INTEGER := 0;
  cut_from INTEGER;
  base INTEGER;
  cut INTEGER;
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
  cfg := verbatim_search_config((SELECT t."lang" FROM "Transcript" t WHERE t."id" = rev."transcriptId"));
  FOR p IN
    SELECT rp."pid", rp."body" FROM "RevisionPassage" rp
    WHERE rp."revisionId" = rid AND rp."body" IS NOT NULL ORDER BY rp."seq"
  LOOP
    UPDATE "RevisionPassage"
    SET "tsv" = to_tsvector(cfg::regconfig, p."body") || to_tsvector('simple', verbatim_cjk_bigrams(p."body")), "body" = NULL
    WHERE "pid" = p."pid";
    PERFORM verbatim_search_post(ARRAY[p."pid"]);
    indexed := indexed + 1;
    IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond' THEN RETURN 'more'; END IF;
  END LOOP;
  -- A step indexes passages or cuts a range, not both: each is bounded on its own.
  IF indexed > 0 THEN RETURN 'more'; END IF;
  SELECT coalesce(max(rp."segTo") + 1, 0), coalesce(max(rp."seq") + 1, 0) INTO cut_from, base
  FROM "RevisionPassage" rp WHERE rp."revisionId" = rid;
  INSERT INTO "RevisionPassage" ("revisionId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv", "body")
  SELECT rid, base + w.seq, min(w.idx), max(w.idx), min(w.start_s), max(greatest(w.end_s, w.start_s)), cfg, ''::tsvector,
         string_agg(w.text, ' ' ORDER BY w.idx)
  FROM (
    SELECT s.*, (s.before / 200)::int AS seq
    FROM (
      SELECT s.*, coalesce(sum(char_length(s.text) + 1) OVER (ORDER BY s.idx ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
      FROM "TranscriptRevision" r CROSS JOIN LATERAL verbatim_segments_range(r."segments", cut_from, cut_from + 999) AS s
      WHERE r."id" = rid
    ) AS s
    WHERE s.before < 100000
  ) AS w
  GROUP BY w.seq;
  GET DIAGNOSTICS cut = ROW_COUNT;
  IF cut > 0 THEN RETURN 'more'; END IF;
  UPDATE "TranscriptRevision" SET "indexedAt" = NULL
  WHERE "userId" = rev."userId" AND "transcriptId" = rev."transcriptId" AND "id" <> rid AND "indexedAt" IS NOT NULL;
  UPDATE "TranscriptRevision" SET "indexedAt" = now() WHERE "id" = rid;
  RETURN 'done';
END
$$;
