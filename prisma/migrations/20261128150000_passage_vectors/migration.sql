-- prisma/sql/functions/verbatim_vector_setup.sql
-- Search by meaning through pgvector where the server has it (lib/search/vector-index.ts): the extension, each
-- passage's vector as a halfvec beside its int8 form (which the bounded search without pgvector reads), and the
-- default embedder's HNSW index (cosine; another embedder's dimensions get theirs when its first vectors are
-- written). A server without pgvector 0.7 or newer (Debian's PostgreSQL 15 has none), or a user who may not create
-- it, changes nothing: meaning search keeps its bounded candidates, and nothing fails. Run by its migration and by
-- every `npm run db:migrate`, so a server that gains pgvector later gets it. Returns whether the column is there.
CREATE OR REPLACE FUNCTION verbatim_vector_setup() RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    IF NOT EXISTS (
      SELECT 1 FROM pg_available_extensions
      WHERE name = 'vector' AND string_to_array(split_part(default_version, '-', 1), '.')::int[] >= '{0,7}'
    ) THEN
      RETURN FALSE;
    END IF;
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_type WHERE typname = 'halfvec') THEN
    RETURN FALSE;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM pg_attribute
    WHERE attrelid = '"PassageEmbedding"'::regclass AND attname = 'embedding' AND NOT attisdropped
  ) THEN
    ALTER TABLE "PassageEmbedding" ADD COLUMN "embedding" halfvec;
    -- The vectors stored so far, from their int8 form (a byte b is the signed (b # 128) - 128).
    UPDATE "PassageEmbedding" SET "embedding" = (
      SELECT array_agg((((get_byte("vector", i) # 128) - 128) * "scale")::real ORDER BY i)::halfvec
      FROM generate_series(0, length("vector") - 1) AS i
    ) WHERE length("vector") > 0;
  END IF;
  CREATE INDEX IF NOT EXISTS "PassageEmbedding_hnsw_100" ON "PassageEmbedding"
    USING hnsw (("embedding"::halfvec(100)) halfvec_cosine_ops) WHERE vector_dims("embedding") = 100;
  RETURN TRUE;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'pgvector is on the server but this user may not create it (%): meaning search keeps its bounded candidates', SQLERRM;
  RETURN FALSE;
END
$$;

SELECT verbatim_vector_setup();
