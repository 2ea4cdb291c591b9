// Every passage's meaning stored beside it ("PassageEmbedding", by pid): the passages that have no vector of the
// embedder in use, newest first, a batch at a time, embedded (the default's in a worker thread) and written. What is missing is the
// job's state, so it resumes wherever it stopped (a restart, a crash, a new transcript or correction stored
// meanwhile: their passages are new, so missing) and two processes at once only repeat a batch (one writes it). A
// passage none of whose words has a vector gets an empty one, so it is not read again.
import { getDb, type Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Embedder } from "@/lib/embeddings/embedder";
import { ensureVectorIndex, vectorColumn, vectorText } from "@/lib/search/vector-index";

export const EMBED_BATCH = 256;

/** Pids between which to look (exclusive): a backfill goes down from where its last batch ended. */
export interface PidRange {
  above?: bigint;
  below?: bigint;
}

/** Where a stage keeps its vectors (by pid and model): fixed names, safe to write into SQL. */
export type VectorTable = "PassageEmbedding" | "PassageSecondVector";

/**
 * At most `batch` passages within `range` that `model` has no vector of in `table`, newest first, with their text as
 * the index read it (the correction's segments for a correction's passage): the segments of each transcript or
 * correction read once for the batch (verbatim_passages_text), not once a passage.
 */
export async function passagesWithoutVector(
  db: Db,
  table: VectorTable,
  model: string,
  batch: number,
  range: PidRange,
): Promise<{ pid: bigint; text: string | null }[]> {
  return db.$queryRaw<{ pid: bigint; text: string | null }[]>`
    SELECT b."pid", b."text" FROM verbatim_passages_text(ARRAY(
      SELECT p."pid" FROM "SearchPassage" p
      WHERE NOT EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)} v WHERE v."pid" = p."pid" AND v."model" = ${model})
        AND p."pid" > ${range.above ?? -1n} AND p."pid" < ${range.below ?? 2n ** 62n}
      ORDER BY p."pid" DESC
      LIMIT ${batch})) AS b
    ORDER BY b."pid" DESC`;
}

/**
 * Embeds at most `batch` passages within `range` that have no vector of `embedder`, newest first: how many, and the
 * lowest pid among them (where the next batch goes on below).
 */
export async function embedMissingPassages(
  embedder: Embedder,
  batch = EMBED_BATCH,
  range: PidRange = {},
): Promise<{ embedded: number; lowest: bigint | null }> {
  const db = await getDb();
  const rows = await passagesWithoutVector(db, "PassageEmbedding", embedder.model, batch, range);
  if (rows.length === 0) return { embedded: 0, lowest: null };
  await embedder.prepare();
  const vectors = await embedder.embed(rows.map((r) => r.text ?? ""));
  const quantised = vectors.map((v) => (v ? quantise(v) : { bytes: Buffer.alloc(0), scale: 0 }));
  const pids = rows.map((r) => r.pid);
  const bytes = quantised.map((q) => q.bytes);
  const scales = quantised.map((q) => q.scale);
  // Only passages still there (one deleted meanwhile took its vector's row with it, or never gets one).
  if (await vectorColumn(db)) {
    for (const dims of new Set(vectors.flatMap((v) => (v && v.length > 0 ? [v.length] : []))))
      await ensureVectorIndex(db, dims);
    await db.$executeRaw`
      INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale", "embedding")
      SELECT e.pid, ${embedder.model}, e.vector, e.scale, e.embedding::halfvec
      FROM unnest(${pids}::bigint[], ${bytes}::bytea[], ${scales}::real[], ${vectors.map(vectorText)}::text[])
        AS e(pid, vector, scale, embedding)
      WHERE EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e.pid)
      ON CONFLICT ("pid") DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector",
        "scale" = EXCLUDED."scale", "embedding" = EXCLUDED."embedding"`;
  } else
    await db.$executeRaw`
      INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale")
      SELECT e.pid, ${embedder.model}, e.vector, e.scale
      FROM unnest(${pids}::bigint[], ${bytes}::bytea[], ${scales}::real[]) AS e(pid, vector, scale)
      WHERE EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e.pid)
      ON CONFLICT ("pid") DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector", "scale" = EXCLUDED."scale"`;
  return { embedded: rows.length, lowest: rows.at(-1)!.pid };
}

/** The highest pid of any passage (0 when none): what is newer than it was stored after. */
export async function highestPid(): Promise<bigint> {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ pid: bigint | null }[]>`SELECT max("pid") AS pid FROM "SearchPassage"`;
  return row?.pid ?? 0n;
}

/** A unit vector as int8 × scale (the stored form: dims + 4 bytes). */
export function quantise(vector: Float32Array): { bytes: Buffer; scale: number } {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  const bytes = Buffer.alloc(vector.length);
  vector.forEach((x, d) => bytes.writeInt8(Math.round(x / scale), d));
  return { bytes, scale };
}

/** A stored vector read back (null: the passage has no meaning to compare). */
export function dequantise(bytes: Uint8Array, scale: number): Float32Array | null {
  if (bytes.length === 0) return null;
  const out = new Float32Array(bytes.length);
  const signed = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let d = 0; d < out.length; d++) out[d] = signed[d]! * scale;
  return out;
}

/** How far the embedding of every passage has come: what an operator sees (doctor, /health). */
export async function embeddingProgress(embedder: Embedder): Promise<{ passages: number; embedded: number }> {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ passages: number; embedded: number }[]>`
    SELECT (SELECT count(*) FROM "SearchPassage")::int AS passages,
           (SELECT count(*) FROM "PassageEmbedding" WHERE "model" = ${embedder.model})::int AS embedded`;
  return row!;
}
