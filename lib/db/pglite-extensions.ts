// The extensions the migrations create (CREATE EXTENSION pg_trgm, btree_gin: the history's substring filter,
// lib/transcripts/list-transcriptions.ts; vector, pgvector: the passages' meaning and its HNSW index,
// lib/search/vector-index.ts). PostgreSQL finds them on disk; PGlite loads only those handed to PGlite.create,
// so every PGlite the app or a test opens is given these.
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite-pgvector";

export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin, vector };
