// Meaning past the exact bound without pgvector (`npm run bench -- search-vector-lists`): on PostgreSQL (its server's
// pgvector, if any, left unused), the search bench's corpus (search.ts's seed: real English words of the caption
// tracks; VECTOR_LISTS_TRANSCRIPTS transcripts, 3,800 by default: about 100,000 passages; one user has them all,
// every second one is published), every passage embedded by the default model as the background job does it, the
// lists of vectors trained as it does. Then, per query (the judged set's questions and the meaning-cost queries), in
// the library of everything (every passage) and in public search (half of them): p50/p95 of the exact compare of
// every passage in reach, of the lists and of the bounded candidates, their ratios, the heap each search grows by
// (sampled), and the recall@10 of the lists and of the bounded candidates against the exact nearest, at the search's
// number of lists read, half and twice it.
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import pg from "pg";
import { createMigratedTestDatabase } from "../../test/pg";
import { JUDGED_QUERIES } from "../../test/fixtures/captions/judged-search";
import { percentile, type Sql } from "./search";
import { MEANING_COST_QUERIES, seedAndEmbed } from "./search-meaning-cost";

const K = 10;
/** Queries the passages' recall is measured on at each number of lists read (each reads every list first). */
const SWEEP = 60;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The most the heap (and array buffers) grew above where they were while `run` ran, sampled each millisecond. */
async function heapGrowth(run: () => Promise<unknown>): Promise<number> {
  gc();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const base = used();
  let most = base;
  const sampler = setInterval(() => (most = Math.max(most, used())), 1);
  try {
    await run();
    most = Math.max(most, used());
  } finally {
    clearInterval(sampler);
  }
  return most - base;
}

export async function benchSearchVectorLists(): Promise<Record<string, number>> {
  const transcripts = Number(process.env.VECTOR_LISTS_TRANSCRIPTS ?? 3800);
  const database = await createMigratedTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const db: Sql = { query: async (sql, params) => (await client.query(sql, params)).rows };
  const figures: Record<string, number> = {};
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  process.env.SEARCH_EMBEDDER = "default";
  const { closeDatabase, getDb } = await import("../../lib/db/client");
  try {
    await db.query(`ALTER TABLE "PassageEmbedding" DROP COLUMN IF EXISTS "embedding"`);
    const { passages: n, msPerPassage } = await seedAndEmbed(db, transcripts);
    figures["passages"] = n;
    figures["embedding every passage: ms per passage"] = msPerPassage;
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    const embedder = configuredEmbedder()!;
    await db.query("ANALYZE");
    const lists = await import("../../lib/search/vector-lists");
    const started = performance.now();
    const trained = await lists.trainVectorLists(await getDb(), embedder.model);
    figures["lists: build (sample, k-means, every vector assigned), s"] = (performance.now() - started) / 1000;
    figures["lists: number"] = trained;
    const probedDefault = lists.listsProbed(trained, n / trained);
    figures["lists: read first by a query"] = probedDefault;
    await db.query("ANALYZE");
    const [size] = await db.query<{ lists: number }>(
      `SELECT pg_total_relation_size('"PassageVectorList"')::float8 AS lists`,
    );
    figures["lists: centroids' table, KB"] = size!.lists / 1024;

    const { EXACT_MAX_PASSAGES, nearestPassages, readsAsProse } = await import("../../lib/search/meaning");
    const { passageVisibility } = await import("../../lib/search/search-statement");
    const { Prisma } = await import("../../lib/generated/prisma/client");
    const queries = [...new Set([...JUDGED_QUERIES.map((j) => j.q), ...MEANING_COST_QUERIES])].filter(readsAsProse);
    figures["queries"] = queries.length;
    const any = { platform: null, lang: null };
    const scopes = [
      { name: "library of all", scope: { kind: "library", userId: "bench-all" } as const, user: "bench-all" },
      { name: "public (half)", scope: { kind: "public", show: null } as const, user: null },
    ];
    for (const { name, scope, user } of scopes) {
      const [{ scoped }] = await db.query<{ scoped: number }>(
        user
          ? `SELECT count(*)::int AS scoped FROM "TranscriptPassage" p JOIN "Transcription" h ON h."transcriptId" = p."transcriptId" AND h."userId" = $1`
          : `SELECT count(*)::int AS scoped FROM "TranscriptPassage" p JOIN "Publication" pub ON pub."transcriptId" = p."transcriptId"`,
        user ? [user] : [],
      );
      figures[`${name}: passages in reach`] = scoped;
      const ways = {
        exact: { exactMax: Number.MAX_SAFE_INTEGER },
        lists: { exactMax: Math.min(scoped - 1, EXACT_MAX_PASSAGES) },
        bounded: { exactMax: Math.min(scoped - 1, EXACT_MAX_PASSAGES), index: false },
      };
      const top: Record<string, bigint[][]> = {};
      for (const [way, options] of Object.entries(ways)) {
        const search = (q: string) =>
          nearestPassages(scope, { q, ...any }, K, embedder, { ...options, offTopicFrom: Number.MAX_SAFE_INTEGER });
        top[way] = [];
        for (const q of queries.slice(0, 5)) await search(q);
        const taken: number[] = [];
        for (const q of queries) {
          const t = performance.now();
          top[way].push((await search(q)).map((m) => m.pid));
          taken.push(performance.now() - t);
        }
        taken.sort((a, b) => a - b);
        figures[`${name}, ${way}: p50 ms`] = percentile(taken, 0.5);
        figures[`${name}, ${way}: p95 ms`] = percentile(taken, 0.95);
        const grown: number[] = [];
        for (const q of queries.slice(0, 10)) grown.push(await heapGrowth(() => search(q)));
        figures[`${name}, ${way}: heap grown in a search, MB (most of 10)`] = Math.max(...grown) / 1024 / 1024;
      }
      for (const way of ["lists", "bounded"]) {
        figures[`${name}, ${way} / exact: p50 (ratio)`] =
          figures[`${name}, ${way}: p50 ms`]! / figures[`${name}, exact: p50 ms`]!;
        figures[`${name}, ${way} / exact: p95 (ratio)`] =
          figures[`${name}, ${way}: p95 ms`]! / figures[`${name}, exact: p95 ms`]!;
      }
      const recall = (found: bigint[][]) => {
        let hit = 0;
        let asked = 0;
        top.exact!.forEach((exact, i) => {
          const got = new Set(found[i]);
          hit += exact.filter((pid) => got.has(pid)).length;
          asked += exact.length;
        });
        return asked > 0 ? hit / asked : 0;
      };
      figures[`${name}, lists: recall@10 against the exact nearest`] = recall(top.lists!);
      figures[`${name}, bounded: recall@10 against the exact nearest`] = recall(top.bounded!);
      // The lists alone (no completion, no cap per transcript), reading half and twice the search's number of lists.
      const { visible } = passageVisibility({
        user: user ? Prisma.sql`${user}` : null,
        show: null,
        corrects: false,
      });
      const inLists = async (vector: Float32Array, probed: number) =>
        (await lists.nearestInLists(await getDb(), embedder.model, vector, { visible, filtered: Prisma.empty }, 1, {
          probed,
        }))!
          .sort((a, b) => b.score - a.score)
          .slice(0, K)
          .map((c) => c.pid);
      const exactTop: { vector: Float32Array; best: bigint[] }[] = [];
      for (const q of queries.slice(0, SWEEP)) {
        const vector = (await embedder.embedQuery(q))!;
        exactTop.push({ vector, best: await inLists(vector, trained) });
      }
      for (const probed of [Math.max(1, probedDefault / 2), probedDefault, 2 * probedDefault]) {
        let hit = 0;
        let asked = 0;
        for (const { vector, best } of exactTop) {
          const ids = new Set(await inLists(vector, Math.round(probed)));
          hit += best.filter((pid) => ids.has(pid)).length;
          asked += best.length;
        }
        figures[`${name}: passages' recall@10 reading ${Math.round(probed)} lists`] = asked > 0 ? hit / asked : 0;
      }
    }
  } finally {
    await closeDatabase();
    await client.end();
    await database.drop();
  }
  return figures;
}
