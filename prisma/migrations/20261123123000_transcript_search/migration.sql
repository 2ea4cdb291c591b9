-- Full-text search inside transcripts (lib/search). Each transcript's segments are cut into passages of
-- about 200 characters (whole segments, in order); a passage keeps the range of its segments, its times and
-- one tsvector (the text itself stays in "Transcript"."segments", read back for the answer's few passages):
-- the words stemmed by the transcript language's text search configuration, plus CJK bigrams
-- (Chinese, Japanese and Korean are written without spaces: every two adjacent characters are a token, so
-- a query of two or more characters matches anywhere inside a run). A trigger on "Transcript" rebuilds a
-- transcript's passages whenever its segments or language are stored or replaced, in the same transaction;
-- deleting a transcript deletes them (cascade). Who may see a passage is decided when searching: the
-- caller's done history entries, or a live publication (Publication."publishedAt" IS NOT NULL).

-- The text search configuration for a transcript language (BCP 47 tag; its primary subtag decides).
-- lib/search/config.ts holds the same table (a test compares them).
CREATE FUNCTION verbatim_search_config(lang TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(split_part(replace(coalesce(lang, ''), '_', '-'), '-', 1))
    WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque' WHEN 'ca' THEN 'catalan'
    WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch' WHEN 'en' THEN 'english' WHEN 'fi' THEN 'finnish'
    WHEN 'fr' THEN 'french' WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek' WHEN 'hi' THEN 'hindi'
    WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish' WHEN 'it' THEN 'italian'
    WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali' WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian'
    WHEN 'nn' THEN 'norwegian' WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian'
    WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish' WHEN 'ta' THEN 'tamil'
    WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish'
    ELSE 'simple' END
$$;

-- The CJK bigrams of a text, space-separated: each run of Han, kana or Hangul characters gives its pairs of
-- adjacent characters ("比特币" → "比特 特币"); a run of one character gives that character.
-- lib/search/cjk.ts makes the same tokens of a query.
CREATE FUNCTION verbatim_cjk_bigrams(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
    CASE WHEN char_length(run) = 1 THEN run
    ELSE (SELECT string_agg(substr(run, i, 2), ' ' ORDER BY i) FROM generate_series(1, char_length(run) - 1) AS i) END,
    ' ' ORDER BY n), '')
  FROM regexp_matches(coalesce(t, ''), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g')
    WITH ORDINALITY AS m(run_match, n), LATERAL (SELECT run_match[1] AS run) AS r
$$;

CREATE TABLE "TranscriptPassage" (
    "transcriptId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "segFrom" INTEGER NOT NULL,
    "segTo" INTEGER NOT NULL,
    "start" DOUBLE PRECISION NOT NULL,
    "end" DOUBLE PRECISION NOT NULL,
    "config" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "TranscriptPassage_pkey" PRIMARY KEY ("transcriptId","seq")
);

CREATE INDEX "TranscriptPassage_tsv_idx" ON "TranscriptPassage" USING GIN ("tsv");

ALTER TABLE "TranscriptPassage" ADD CONSTRAINT "TranscriptPassage_transcriptId_fkey" FOREIGN KEY ("transcriptId") REFERENCES "Transcript"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A transcript's segments as rows: index, text, start and end, read the same way when indexing and when
-- answering. U+E000 and U+E001 mark matches in search answers: never part of a text.
CREATE FUNCTION verbatim_segments(segments JSONB) RETURNS TABLE (idx INTEGER, text TEXT, start_s DOUBLE PRECISION, end_s DOUBLE PRECISION)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (x.ord - 1)::int,
         regexp_replace(coalesce(x.value ->> 'text', ''), '[\ue000\ue001]', '', 'g'),
         CASE WHEN jsonb_typeof(x.value -> 'start') = 'number' THEN (x.value ->> 'start')::float8 ELSE 0 END,
         CASE WHEN jsonb_typeof(x.value -> 'end') = 'number' THEN (x.value ->> 'end')::float8 ELSE 0 END
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(segments) = 'array' THEN segments ELSE '[]'::jsonb END) WITH ORDINALITY AS x(value, ord)
$$;

-- Replaces one transcript's passages with those of its segments.
CREATE FUNCTION verbatim_index_transcript(tid TEXT, lang TEXT, segments JSONB) RETURNS VOID
LANGUAGE sql AS $$
  DELETE FROM "TranscriptPassage" WHERE "transcriptId" = tid;
  INSERT INTO "TranscriptPassage" ("transcriptId", "seq", "segFrom", "segTo", "start", "end", "config", "tsv")
  SELECT tid, p.seq, p.seg_from, p.seg_to, p.first_start, p.last_end, p.cfg,
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

CREATE FUNCTION verbatim_transcript_search_trigger() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."segments" = NEW."segments" AND OLD."lang" = NEW."lang" THEN
    RETURN NULL;
  END IF;
  PERFORM verbatim_index_transcript(NEW."id", NEW."lang", NEW."segments");
  RETURN NULL;
END
$$;

CREATE TRIGGER "Transcript_search_index" AFTER INSERT OR UPDATE OF "segments", "lang" ON "Transcript"
FOR EACH ROW EXECUTE FUNCTION verbatim_transcript_search_trigger();

-- Backfill: every transcript stored so far.
SELECT verbatim_index_transcript("id", "lang", "segments") FROM "Transcript";
