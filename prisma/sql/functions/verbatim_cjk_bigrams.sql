-- The CJK bigrams of a text, space-separated: each run of Han, kana or Hangul characters gives its pairs of
-- adjacent characters ("比特币" → "比特 特币"); a run of one character gives that character. Chinese, Japanese
-- and Korean are written without spaces, so a query of two or more characters matches anywhere inside a run.
-- lib/search/cjk.ts makes the same tokens of a query. Each run is split into its characters once and paired
-- with the next (lead): substr(run, i, 2) walks a multibyte text from its start, so a run of n characters cost
-- n² steps.
CREATE OR REPLACE FUNCTION verbatim_cjk_bigrams(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(p.pair, ' ' ORDER BY m.n, p.i), '')
  FROM regexp_matches(coalesce(t, ''), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g')
    WITH ORDINALITY AS m(run_match, n),
  LATERAL (
    SELECT x.i, x.c || coalesce(x.nxt, '') AS pair, x.nxt IS NULL AND x.i > 1 AS past_last
    FROM (SELECT u.c, u.i, lead(u.c) OVER (ORDER BY u.i) AS nxt
          FROM unnest(regexp_split_to_array(m.run_match[1], '')) WITH ORDINALITY AS u(c, i)) AS x
  ) AS p
  WHERE NOT p.past_last
$$;
