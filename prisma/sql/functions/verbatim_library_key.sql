-- A user's key: the first 8 hex digits of the SHA-256 of their id (lib/search/find-moments.ts computes the
-- same). Each word of an entry's "lexemes" follows it, so the GIN index on "lexemes" finds one caller's
-- entries by their own keys alone.
CREATE OR REPLACE FUNCTION verbatim_library_key(user_id TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 8)
$$;
