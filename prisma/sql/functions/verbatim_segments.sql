-- A transcript's segments as rows: index, text, start and end, read the same way when indexing and when
-- answering. U+E000 and U+E001 mark matches in search answers: never part of a text.
CREATE OR REPLACE FUNCTION verbatim_segments(segments JSONB) RETURNS TABLE (idx INTEGER, text TEXT, start_s DOUBLE PRECISION, end_s DOUBLE PRECISION)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (x.ord - 1)::int,
         regexp_replace(coalesce(x.value ->> 'text', ''), '[\ue000\ue001]', '', 'g'),
         CASE WHEN jsonb_typeof(x.value -> 'start') = 'number' THEN (x.value ->> 'start')::float8 ELSE 0 END,
         CASE WHEN jsonb_typeof(x.value -> 'end') = 'number' THEN (x.value ->> 'end')::float8 ELSE 0 END
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(segments) = 'array' THEN segments ELSE '[]'::jsonb END) WITH ORDINALITY AS x(value, ord)
$$;
