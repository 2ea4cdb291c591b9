// Search by meaning past the exact bound where the database has no pgvector (Debian's PostgreSQL 15): an inverted
// file in plain tables. An embedder's centroids (PassageVectorList), about √N of them, trained by k-means on a
// sample of its stored vectors in a worker thread (vector-lists-job.ts); each stored vector's list
// (PassageEmbedding.list) is its nearest centroid. A query ranks the centroids here, reads the vectors of its nearest
// lists and of those not yet assigned (list null) among the passages the caller may see, and compares them exactly.
// The background job (lib/app/schedule-embedding.ts) trains the lists once an embedder has enough vectors, again
// when they have doubled, and assigns each new vector its list.
import { getDb, type Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { runOffThread } from "@/lib/process/off-thread";
import { scoreStoredVectors, type VectorCandidate } from "@/lib/search/stored-vectors";
import { vectorColumn } from "@/lib/search/vector-index";
import type { ListsAnswer, ListsJob } from "@/lib/search/vector-lists-job";

/**
 * An embedder's vectors from which its lists are trained: half the exact bound (meaning.ts's EXACT_MAX_PASSAGES), so
 * they are ready before any scope passes it.
 */
export const LISTS_FROM_VECTORS = 25_000;
/**
 * Sample vectors per list the centroids are trained on (faiss warns below 39), chosen by their pid's hash rather than
 * at random, so the same vectors make the same lists.
 */
const SAMPLE_PER_LIST = 40;
const ITERATIONS = 12;
/**
 * Lists a query reads first: this share of them, at least LISTS_PROBED_MIN. Averaged word vectors cluster loosely,
 * and the default's distilled half (everything about 0.7 alike) more so: on the judged set's 2,122 passages (46
 * lists) a quarter of them found 0.664 of the paraphrases by meaning against 0.718 for HNSW, a third 0.682.
 */
export const LISTS_PROBED_SHARE = 1 / 3;
const LISTS_PROBED_MIN = 8;
/**
 * Vectors (estimated: lists read × their mean size) a query reads at most: half the exact bound, so a search past
 * it never costs more than half the exact compare at it. Past 200,000 vectors it is what bounds the share of lists
 * read; and while too few visible passages are found (a small visible share of a large library) the lists are
 * read in widening rounds up to it, what is still missing completed by the words' candidates, as after pgvector's
 * scan.
 */
export const LISTS_MAX_VECTORS = 25_000;
/** Vectors assigned their list per transaction. */
const ASSIGN_BATCH = 20_000;
/** The list of a vector with no direction (a passage none of whose words has a vector): never read. */
const NO_LIST = -1;
// Serialises training and assigning (both write lists) across the processes of one database.
const LOCK_KEY = 0x766c6973; // "vlis"

const THREAD = { threads: 1, timeoutMs: 15 * 60_000, memoryMb: 2_048 };

/** The number of lists for `n` vectors: about √n, from 16 to 4,096. */
export function listCount(n: number): number {
  return Math.min(4_096, Math.max(16, Math.round(Math.sqrt(n))));
}

/** Lists a query reads first, of `lists` of `meanSize` vectors each. */
export function listsProbed(lists: number, meanSize: number): number {
  const most = Math.max(1, Math.floor(LISTS_MAX_VECTORS / Math.max(1, meanSize)));
  return Math.min(lists, most, Math.max(LISTS_PROBED_MIN, Math.ceil(lists * LISTS_PROBED_SHARE)));
}

async function offThread(job: Omit<ListsJob, "kind">): Promise<ListsAnswer> {
  return runOffThread<ListsAnswer>(
    { kind: "vector-lists", ...job } satisfies ListsJob,
    THREAD,
    () => new Error("training the vector lists took too long or too much memory"),
    [job.vectors.buffer as ArrayBuffer],
  );
}

/** Rows' vectors as one buffer, vector i at i × dims. */
function packed(rows: readonly { vector: Uint8Array }[], dims: number): Uint8Array {
  const out = new Uint8Array(rows.length * dims);
  rows.forEach((r, i) => out.set(r.vector, i * dims));
  return out;
}

/**
 * Trains `model`'s lists on a sample of its stored vectors and assigns every vector its list, in one transaction
 * (a query reads the old lists and assignments until it commits). Returns the number of lists (0: no vectors).
 */
export async function trainVectorLists(
  db: Db,
  model: string,
  { lists, seed = 1 }: { lists?: number; seed?: number } = {},
): Promise<number> {
  const [first] = await db.$queryRaw<{ dims: number; n: number }[]>`
    SELECT length("vector") AS dims, (SELECT count(*) FROM "PassageEmbedding" WHERE "model" = ${model})::int AS n
    FROM "PassageEmbedding" WHERE "model" = ${model} AND length("vector") > 0 LIMIT 1`;
  if (!first) return 0;
  const { dims, n } = first;
  const k = lists ?? listCount(n);
  const sample = await db.$queryRaw<{ vector: Uint8Array }[]>`
    SELECT "vector" FROM "PassageEmbedding" WHERE "model" = ${model} AND length("vector") = ${dims}
    ORDER BY md5("pid"::text) LIMIT ${k * SAMPLE_PER_LIST}`;
  const { centroids } = await offThread({
    dims,
    vectors: packed(sample, dims),
    centroids: null,
    lists: k,
    iterations: ITERATIONS,
    seed,
  });
  const trained = centroids.length / dims;
  const bytes = Array.from({ length: trained }, (_, j) =>
    Buffer.from(centroids.buffer, centroids.byteOffset + j * dims * 4, dims * 4),
  );
  await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEY})`;
      await tx.$executeRaw`DELETE FROM "PassageVectorList" WHERE "model" = ${model}`;
      await tx.$executeRaw`
        INSERT INTO "PassageVectorList" ("model", "list", "centroid", "trainedOn")
        SELECT ${model}, l.list, l.centroid, ${n} FROM unnest(${Array.from(bytes.keys())}::int[], ${bytes}::bytea[]) AS l(list, centroid)`;
      // Every vector, a page at a time by pid, assigned off the event loop.
      let after = -1n;
      for (;;) {
        const page = await tx.$queryRaw<{ pid: bigint; vector: Uint8Array }[]>`
          SELECT "pid", "vector" FROM "PassageEmbedding" WHERE "model" = ${model} AND length("vector") = ${dims}
            AND "pid" > ${after} ORDER BY "pid" LIMIT ${ASSIGN_BATCH}`;
        if (page.length === 0) break;
        await assign(tx, page, dims, centroids);
        after = page.at(-1)!.pid;
      }
      await tx.$executeRaw`UPDATE "PassageEmbedding" SET "list" = ${NO_LIST}
        WHERE "model" = ${model} AND length("vector") <> ${dims} AND "list" IS DISTINCT FROM ${NO_LIST}`;
    },
    { maxWait: 60_000, timeout: THREAD.timeoutMs },
  );
  centroidCache.delete(db);
  return trained;
}

async function assign(
  tx: Pick<Db, "$executeRaw">,
  rows: readonly { pid: bigint; vector: Uint8Array }[],
  dims: number,
  centroids: Float32Array,
): Promise<void> {
  const { nearest } = await offThread({
    dims,
    vectors: packed(rows, dims),
    centroids: centroids.slice(),
    lists: centroids.length / dims,
    iterations: 0,
    seed: 0,
  });
  await tx.$executeRaw`
    UPDATE "PassageEmbedding" e SET "list" = a.list
    FROM unnest(${rows.map((r) => r.pid)}::bigint[], ${Array.from(nearest)}::int[]) AS a(pid, list)
    WHERE e."pid" = a.pid`;
}

/** Assigns `model`'s vectors that have no list yet theirs (at most `batch`): how many. 0 when it has no lists. */
export async function assignNewVectors(db: Db, model: string, batch = ASSIGN_BATCH): Promise<number> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEY})`;
      const lists = await tx.$queryRaw<{ centroid: Uint8Array }[]>`
        SELECT "centroid" FROM "PassageVectorList" WHERE "model" = ${model} ORDER BY "list"`;
      if (lists.length === 0) return 0;
      const dims = lists[0]!.centroid.length / 4;
      const rows = await tx.$queryRaw<{ pid: bigint; vector: Uint8Array }[]>`
        SELECT "pid", "vector" FROM "PassageEmbedding" WHERE "model" = ${model} AND "list" IS NULL LIMIT ${batch}`;
      const fit = rows.filter((r) => r.vector.length === dims);
      if (fit.length > 0) await assign(tx, fit, dims, centroidsOf(lists, dims));
      const unfit = rows.filter((r) => r.vector.length !== dims).map((r) => r.pid);
      if (unfit.length > 0)
        await tx.$executeRaw`UPDATE "PassageEmbedding" SET "list" = ${NO_LIST} WHERE "pid" = ANY(${unfit}::bigint[])`;
      return rows.length;
    },
    { maxWait: 60_000, timeout: THREAD.timeoutMs },
  );
}

function centroidsOf(rows: readonly { centroid: Uint8Array }[], dims: number): Float32Array {
  const out = new Float32Array(rows.length * dims);
  rows.forEach((r, j) =>
    out.set(
      new Float32Array(r.centroid.buffer.slice(r.centroid.byteOffset, r.centroid.byteOffset + dims * 4)),
      j * dims,
    ),
  );
  return out;
}

/**
 * What the background job does each round for `model` where the database has no pgvector: trains the lists once
 * it has `from` vectors, again when they have doubled or halved since, and otherwise assigns the new vectors theirs.
 */
export async function keepVectorLists(model: string, { from = LISTS_FROM_VECTORS } = {}): Promise<void> {
  const db = await getDb();
  if (await vectorColumn(db)) return;
  const [state] = await db.$queryRaw<{ stored: number; trainedOn: number | null }[]>`
    SELECT (SELECT count(*) FROM "PassageEmbedding" WHERE "model" = ${model})::int AS stored,
           (SELECT "trainedOn" FROM "PassageVectorList" WHERE "model" = ${model} LIMIT 1) AS "trainedOn"`;
  const { stored, trainedOn } = state!;
  if (stored >= from && (trainedOn === null || stored >= 2 * trainedOn || 2 * stored < trainedOn))
    await trainVectorLists(db, model);
  else if (trainedOn !== null) while ((await assignNewVectors(db, model)) === ASSIGN_BATCH);
}

type Centroids = { trainedAt: number; dims: number; ids: number[]; vectors: Float32Array; meanSize: number };
const centroidCache = new WeakMap<object, Map<string, Centroids>>();

/** `model`'s centroids, read again only when they were trained again. Null: it has no lists. */
async function centroidsFor(db: Db, model: string): Promise<Centroids | null> {
  const [stamp] = await db.$queryRaw<{ trainedAt: Date; lists: number; trainedOn: number }[]>`
    SELECT "trainedAt", "trainedOn", (SELECT count(*) FROM "PassageVectorList" WHERE "model" = ${model})::int AS lists
    FROM "PassageVectorList" WHERE "model" = ${model} LIMIT 1`;
  if (!stamp) return null;
  const cache = centroidCache.get(db) ?? new Map<string, Centroids>();
  centroidCache.set(db, cache);
  const known = cache.get(model);
  if (known && known.trainedAt === stamp.trainedAt.getTime()) return known;
  const rows = await db.$queryRaw<{ list: number; centroid: Uint8Array }[]>`
    SELECT "list", "centroid" FROM "PassageVectorList" WHERE "model" = ${model} ORDER BY "list"`;
  const dims = rows[0]!.centroid.length / 4;
  const read: Centroids = {
    trainedAt: stamp.trainedAt.getTime(),
    dims,
    ids: rows.map((r) => r.list),
    vectors: centroidsOf(rows, dims),
    meanSize: stamp.trainedOn / Math.max(1, stamp.lists),
  };
  cache.set(model, read);
  return read;
}

export type ListCandidate = VectorCandidate;

/**
 * The visible passages in the lists nearest `vector`, each compared exactly (cosine, from its stored int8 bytes):
 * the nearest `listsProbed` lists first, then widening rounds while fewer than `limit` are found, up to
 * LISTS_MAX_VECTORS. `visibility` is the caller's rule (meaning.ts: passageVisibility and the query's filters, on
 * `p`, the passage). Null when `model` has no lists of `vector`'s dimensions.
 */
export async function nearestInLists(
  db: Db,
  model: string,
  vector: Float32Array,
  visibility: { visible: Prisma.Sql; filtered: Prisma.Sql },
  limit: number,
  { probed }: { probed?: number } = {},
): Promise<ListCandidate[] | null> {
  const centroids = await centroidsFor(db, model);
  if (!centroids || centroids.dims !== vector.length) return null;
  const { dims, ids, vectors } = centroids;
  const closeness = ids.map((_, j) => {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += vectors[j * dims + d]! * vector[d]!;
    return dot;
  });
  const order = ids.map((_, j) => j).sort((a, b) => closeness[b]! - closeness[a]!);
  const most = Math.max(1, Math.floor(LISTS_MAX_VECTORS / Math.max(1, centroids.meanSize)));
  const out: ListCandidate[] = [];
  let read = 0;
  let round = probed ?? listsProbed(ids.length, centroids.meanSize);
  while (read < order.length) {
    const next = order.slice(read, Math.min(order.length, read + round)).map((j) => ids[j]!);
    out.push(...(await readLists(db, model, vector, visibility, next, read === 0)));
    read += next.length;
    if (out.length >= limit || read >= most) break;
    round = Math.min(2 * read, most - read);
  }
  return out;
}

async function readLists(
  db: Db,
  model: string,
  vector: Float32Array,
  { visible, filtered }: { visible: Prisma.Sql; filtered: Prisma.Sql },
  lists: number[],
  unassigned: boolean,
): Promise<ListCandidate[]> {
  const which = unassigned
    ? Prisma.sql`(e."list" = ANY(${lists}::int[]) OR e."list" IS NULL)`
    : Prisma.sql`e."list" = ANY(${lists}::int[])`;
  // Each vector's passage probed for visibility by its pid (OFFSET 0: a lookup each, as the bounded search does).
  const statement = Prisma.sql`SELECT p."pid", p."transcriptId", p."revisionId", e."vector", e."scale"
     FROM "PassageEmbedding" e
     CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = e."pid" AND ${visible}${filtered} OFFSET 0) AS p
     WHERE e."model" = ${model} AND ${which}`;
  return scoreStoredVectors(db, statement, vector);
}
