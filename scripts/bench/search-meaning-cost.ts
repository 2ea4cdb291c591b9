// What searching by meaning adds (`npm run bench -- search-meaning-cost`): the search bench's corpus (search.ts's seed:
// real English words of the caption tracks, MEANING_COST_TRANSCRIPTS transcripts, 1,000 by default, about 30 passages
// each; one user has them all, every second one published), every passage embedded by the default model as the
// background job does it; then p50/p95 of keyword, hybrid and meaning search for words, phrases and questions, in the
// library of everything (a scope past 2,000 passages: the bounded candidates) and in public search.
import path from "node:path";
import pg from "pg";
import { createMigratedTestDatabase } from "../../test/pg";
import { percentile, seed, type Sql } from "./search";

const RUNS = 5;
export const MEANING_COST_QUERIES = [
  "people",
  "really",
  "weather forecast",
  '"the first thing"',
  "motivated",
  "zeppelin",
  "the lone flattop that got away",
  "what cat box filler has to do with this",
];

/**
 * The search bench's corpus of `transcripts` seeded into `db` (the app's database), every passage embedded by the
 * default model as the background job does it: the passages and the embedding's cost per passage.
 */
export async function seedAndEmbed(db: Sql, transcripts: number): Promise<{ passages: number; msPerPassage: number }> {
  await seed(db, transcripts);
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "TranscriptPassage"`);
  const { ensureModelFile, defaultModelFile } = await import("../../lib/embeddings/default-model");
  await ensureModelFile(defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data")));
  const { embedMissingPassages } = await import("../../lib/search/embed-passages");
  const { configuredEmbedder } = await import("../../lib/embeddings/registry");
  const embedder = configuredEmbedder()!;
  const started = performance.now();
  while ((await embedMissingPassages(embedder, 1024)).embedded > 0);
  return { passages: n, msPerPassage: (performance.now() - started) / n };
}

export async function benchSearchMeaningCost(): Promise<Record<string, number>> {
  const transcripts = Number(process.env.MEANING_COST_TRANSCRIPTS ?? 1000);
  const database = await createMigratedTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const db: Sql = { query: async (sql, params) => (await client.query(sql, params)).rows };
  const figures: Record<string, number> = {};
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const { closeDatabase } = await import("../../lib/db/client");
  try {
    const { passages: n, msPerPassage } = await seedAndEmbed(db, transcripts);
    figures["passages"] = n;
    figures["embedding every passage: ms per passage (worker thread, stored)"] = msPerPassage;
    const [size] = await db.query<{ bytes: number }>(
      `SELECT pg_total_relation_size('"PassageEmbedding"')::float8 AS bytes`,
    );
    figures["PassageEmbedding bytes per passage (table, TOAST, index)"] = size!.bytes / n;
    await db.query("ANALYZE");
    const { searchLibrary, searchPublic } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const scopes: [string, (q: string, mode: string) => Promise<unknown>][] = [
      ["library of all", (q, mode) => searchLibrary("bench-all", searchQuerySchema.parse({ q, mode }))],
      ["public", (q, mode) => searchPublic(searchQuerySchema.parse({ q, mode }))],
    ];
    for (const [scope, run] of scopes) {
      for (const mode of ["keyword", "hybrid", "meaning"]) {
        for (const q of MEANING_COST_QUERIES) await run(q, mode);
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++)
          for (const q of MEANING_COST_QUERIES) {
            const t = performance.now();
            await run(q, mode);
            times.push(performance.now() - t);
          }
        times.sort((a, b) => a - b);
        figures[`${scope}, ${mode}: p50 ms`] = percentile(times, 0.5);
        figures[`${scope}, ${mode}: p95 ms`] = percentile(times, 0.95);
      }
    }
  } finally {
    await closeDatabase();
    await client.end();
    await database.drop();
  }
  return figures;
}
