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
