// The passages' vectors in pgvector where the database has it (always on the embedded PGlite; on PostgreSQL where
// the server offers pgvector 0.7 or newer: prisma/sql/functions/verbatim_vector_setup.sql adds the column): a
// halfvec column beside the int8 form, and one HNSW index (cosine) per embedder's dimensions, partial on them, so
// vectors of any length share the column. Without the column, meaning search past the exact bound reads the lists
// of vectors (vector-lists.ts) or its bounded candidates (meaning.ts); which is in use is said by doctor and /health.
import type { Db } from "@/lib/db/client";
import { sqlState } from "@/lib/db/sql-state";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * How the nearest passages of a scope past the exact bound are found: through pgvector's HNSW index, through the
 * lists of vectors in plain tables (vector-lists.ts), or among bounded candidates.
 */
export type VectorSearchPath = "hnsw" | "lists" | "bounded";

const present = new WeakMap<object, Promise<boolean>>();
const indexed = new WeakMap<object, Set<number>>();

/** Whether the passages' vectors have their pgvector column in `db` (read once per client: it only ever appears). */
export function vectorColumn(db: Db): Promise<boolean> {
  let known = present.get(db);
  if (!known) {
    known = db.$queryRaw<{ present: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('"PassageEmbedding"')
        AND attname = 'embedding' AND NOT attisdropped) AS present`.then(([row]) => row?.present === true);
    // A column not there yet may be added by the next `npm run db:migrate`: asked again then.
    void known.then((yes) => (yes ? undefined : present.delete(db))).catch(() => present.delete(db));
    present.set(db, known);
  }
  return known;
}

/** The way in use in `db`, for the embedder `model` (its lists trained or not). */
export async function vectorSearchPath(db: Db, model: string | null = null): Promise<VectorSearchPath> {
  if (await vectorColumn(db)) return "hnsw";
  if (model === null) return "bounded";
  const [row] = await db.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "PassageVectorList" WHERE "model" = ${model}) AS any`;
  return row?.any === true ? "lists" : "bounded";
}

/** The index's name for vectors of `dims` dimensions (the migration makes the default embedder's, 100). */
export function vectorIndexName(dims: number): string {
  return `PassageEmbedding_hnsw_${dims}`;
}

/**
 * Makes the HNSW index for vectors of `dims` dimensions if it is not there (an embedder of other dimensions
 * configured): before its first vectors are written, so it is built over few rows and kept up as they come.
 */
export async function ensureVectorIndex(db: Db, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > 4_000) return; // halfvec's HNSW indexes at most 4,000
  const done = indexed.get(db) ?? new Set<number>();
  indexed.set(db, done);
  if (done.has(dims)) return;
  try {
    // DDL takes no parameters: the name and the dimensions are written in, `dims` an integer checked above.
    const n = Prisma.raw(String(dims));
    await db.$executeRaw`
      CREATE INDEX IF NOT EXISTS ${Prisma.raw(`"${vectorIndexName(dims)}"`)} ON "PassageEmbedding"
      USING hnsw (("embedding"::halfvec(${n})) halfvec_cosine_ops) WHERE vector_dims("embedding") = ${n}`;
  } catch (error) {
    // Another process made it at the same moment (the catalog's unique name).
    if (sqlState(error) !== "23505" && sqlState(error) !== "42P07") throw error;
  }
  done.add(dims);
}

/** A vector as pgvector's text form, `[x,y,…]`; null for none (a passage with no word that has a vector). */
export function vectorText(vector: Float32Array | null): string | null {
  return vector && vector.length > 0 ? `[${Array.from(vector).join(",")}]` : null;
}
