-- The CJK bigrams of a text, space-separated: each run of Han, kana or Hangul characters gives its pairs of
-- adjacent characters ("比特币" → "比特 特币"); a run of one character gives that character. Chinese, Japanese
-- and Korean are written without spaces, so a query of two or more characters matches anywhere inside a run.
-- lib/search/cjk.ts makes the same tokens of a query.
CREATE OR REPLACE FUNCTION verbatim_cjk_bigrams(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
    CASE WHEN char_length(run) = 1 THEN run
    ELSE (SELECT string_agg(substr(run, i, 2), ' ' ORDER BY i) FROM generate_series(1, char_length(run) - 1) AS i) END,
    ' ' ORDER BY n), '')
  FROM regexp_matches(coalesce(t, ''), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g')
    WITH ORDINALITY AS m(run_match, n), LATERAL (SELECT run_match[1] AS run) AS r
$$;
