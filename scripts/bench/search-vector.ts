// Meaning through pgvector's HNSW index against the bounded candidates (`npm run bench -- search-vector`): the search
// bench's corpus (search.ts's seed: real English words of the caption tracks, VECTOR_BENCH_TRANSCRIPTS transcripts,
// 1,000 by default, about 30 passages each; one user has them all, every second one is published) on the embedded
// PGlite with pgvector, every passage embedded by the default model as the background job does it. Then, in the
// library of everything and in public search (scopes past 2,000 passages): p50/p95 of the nearest passages through
// the index and among the bounded candidates (what a PostgreSQL without pgvector does), their ratio, and each
// against keyword search; the index's recall@10 against the exact nearest (the same statement, the index off); and
// the bytes per passage of the vectors (int8 and halfvec) and of the HNSW index.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PGLITE_EXTENSIONS } from "../../lib/db/pglite-extensions";
import { percentile, seed, type Sql } from "./search";
import { MEANING_COST_QUERIES } from "./search-meaning-cost";

const RUNS = 5;
const K = 21;

async function times(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await run();
  const taken: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    taken.push(performance.now() - t);
  }
  taken.sort((a, b) => a - b);
  return { p50: percentile(taken, 0.5), p95: percentile(taken, 0.95) };
}

export async function benchSearchVector(): Promise<Record<string, number>> {
  const transcripts = Number(process.env.VECTOR_BENCH_TRANSCRIPTS ?? 1000);
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  process.env.SEARCH_EMBEDDER = "default";
  const { applyMigrations, pgliteExecutor } = await import("../../lib/db/migrate");
  const { PrismaClient } = await import("../../lib/generated/prisma/client");
  const lite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const figures: Record<string, number> = {};
  try {
    await applyMigrations(pgliteExecutor(lite));
    const db: Sql = { query: async <T>(sql: string, params?: unknown[]) => (await lite.query<T>(sql, params)).rows };
    await seed(db, transcripts);
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "TranscriptPassage"`);
    figures["passages"] = n;
    const client = new PrismaClient({ adapter: new PrismaPGlite(lite) });
    (globalThis as { verbatimDb?: unknown }).verbatimDb = Promise.resolve({ client, kind: "pglite", pglite: lite });
    const { ensureModelFile, defaultModelFile } = await import("../../lib/embeddings/default-model");
    await ensureModelFile(defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data")));
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    const embedder = configuredEmbedder()!;
    const started = performance.now();
    while ((await embedMissingPassages(embedder, 1024)).embedded > 0);
    figures["embedding every passage, HNSW kept up: ms per passage"] = (performance.now() - started) / n;
    await db.query("ANALYZE");

    const [size] = await db.query<{ total: number; hnsw: number; int8: number; halfvec: number }>(
      `SELECT pg_total_relation_size('"PassageEmbedding"')::float8 AS total,
              pg_relation_size('"PassageEmbedding_hnsw_100"')::float8 AS hnsw,
              avg(pg_column_size("vector"))::float8 AS int8, avg(pg_column_size("embedding"))::float8 AS halfvec
       FROM "PassageEmbedding"`,
    );
    figures["bytes per passage: PassageEmbedding in all (heap, key, HNSW)"] = size!.total / n;
    figures["bytes per passage: of which the HNSW index"] = size!.hnsw / n;
    figures["bytes per passage: int8 vector column (value)"] = size!.int8;
    figures["bytes per passage: halfvec column (value)"] = size!.halfvec;
    figures["at 1M passages, PassageEmbedding in all (MB, linear)"] = ((size!.total / n) * 1e6) / 1024 / 1024;

    const { nearestPassages, indexStatement, INDEX_SCAN_SETTINGS } = await import("../../lib/search/meaning");
    const { searchLibrary, searchPublic } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const any = { platform: null, lang: null };
    const scopes = [
      { name: "library of all", scope: { kind: "library", userId: "bench-all" } as const, search: searchLibrary },
      {
        name: "public",
        scope: { kind: "public", show: null } as const,
        search: (_: string, query: ReturnType<typeof searchQuerySchema.parse>) => searchPublic(query),
      },
    ];
    for (const { name, scope, search } of scopes) {
      const each = (run: (q: string) => Promise<unknown>) => async () => {
        for (const q of MEANING_COST_QUERIES) await run(q);
      };
      const perQuery = (t: { p50: number; p95: number }) => ({
        p50: t.p50 / MEANING_COST_QUERIES.length,
        p95: t.p95 / MEANING_COST_QUERIES.length,
      });
      const hnsw = perQuery(await times(each((q) => nearestPassages(scope, { q, ...any }, K, embedder))));
      const bounded = perQuery(
        await times(each((q) => nearestPassages(scope, { q, ...any }, K, embedder, { index: false }))),
      );
      const keyword = perQuery(
        await times(each((q) => search("bench-all", searchQuerySchema.parse({ q, mode: "keyword" })))),
      );
      const hybrid = perQuery(await times(each((q) => search("bench-all", searchQuerySchema.parse({ q })))));
      figures[`${name}: nearest through HNSW, ms per query (p50 of runs)`] = hnsw.p50;
      figures[`${name}: nearest among bounded candidates, ms per query`] = bounded.p50;
      figures[`${name}: keyword search, ms per query`] = keyword.p50;
      figures[`${name}: hybrid search (HNSW), ms per query`] = hybrid.p50;
      figures[`${name}: HNSW / bounded (ratio)`] = hnsw.p50 / bounded.p50;
      figures[`${name}: HNSW nearest / keyword search (ratio)`] = hnsw.p50 / keyword.p50;
      figures[`${name}: bounded nearest / keyword search (ratio)`] = bounded.p50 / keyword.p50;
      figures[`${name}: hybrid (HNSW) / keyword search (ratio)`] = hybrid.p50 / keyword.p50;

      // The index's recall@10: the statement's 10 nearest through the index against the exact 10 (index off), with
      // the search's candidate list (ef_search) and with twice it; the statement's mean time with each.
      const settingsWith = (ef: string) =>
        INDEX_SCAN_SETTINGS.map(
          ([setting, value]) => `SET LOCAL ${setting} = '${setting === "hnsw.ef_search" ? ef : value}'`,
        ).join("; ");
      const searchEf = INDEX_SCAN_SETTINGS.find(([setting]) => setting === "hnsw.ef_search")![1];
      for (const ef of [searchEf, String(2 * Number(searchEf))]) {
        let found = 0;
        let asked = 0;
        let ms = 0;
        for (const q of MEANING_COST_QUERIES) {
          const vector = await embedder.embedQuery(q);
          if (!vector) continue;
          // As the search asks: the rows a page of K needs, the best 10 of them.
          const statement = indexStatement(scope, any, embedder.model, vector, false, Math.max(3 * K, 60));
          const top = async (setting: string) => {
            await lite.exec(`BEGIN; ${setting}`);
            try {
              const t = performance.now();
              const rows = (await lite.query<{ pid: bigint; score: number }>(statement.text, statement.values)).rows;
              if (setting !== "SET LOCAL enable_indexscan = off") ms += performance.now() - t;
              return rows
                .sort((a, b) => b.score - a.score)
                .slice(0, 10)
                .map((r) => String(r.pid));
            } finally {
              await lite.exec("ROLLBACK");
            }
          };
          const exact = await top("SET LOCAL enable_indexscan = off");
          const approximate = new Set(await top(settingsWith(ef)));
          found += exact.filter((pid) => approximate.has(pid)).length;
          asked += exact.length;
        }
        figures[`${name}: HNSW recall@10 against the exact nearest, ef_search ${ef}`] = asked > 0 ? found / asked : 0;
        figures[`${name}: the index's statement, ef_search ${ef}, mean ms`] = ms / MEANING_COST_QUERIES.length;
      }
    }
    delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
    await client.$disconnect();
  } finally {
    await lite.close();
  }
  return figures;
}
