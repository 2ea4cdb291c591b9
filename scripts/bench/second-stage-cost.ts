// What search by meaning's second stage costs (`npm run bench -- second-stage`): the judged set's tracks of real
// speech (test/fixtures/captions/judged-corpora.ts, the tuning corpus) in one reader's library on PostgreSQL, every
// passage embedded by the first stage, then read whole by the second as its background upgrade reads them
// (lib/app/schedule-second-stage.ts upgradeRound, in its thread): the cost a passage and an hour of speech, and what
// a 1,000-hour library's upgrade takes at the upgrade's share of a core; the event loop's delay meanwhile (p95,
// sampled every 10 ms); each judged question's time by keywords and fused with the re-rank (p50, p95); the resident
// memory with the encoder's thread loaded and after it is given back.
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createMigratedTestDatabase } from "../../test/pg";
import { TUNE_CORPUS } from "../../test/fixtures/captions/judged-corpora";
import { storeJudgedLibrary } from "./judged-library";
import { percentile } from "./search";

const USER = "second-stage-reader";
const RUNS = 3;
/** The judged set's first tracks stored (SECOND_STAGE_TRACKS; all 45 are about 2,100 passages). */
const TRACKS = Number(process.env.SECOND_STAGE_TRACKS ?? 15);

export async function benchSecondStageCost(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  process.env.DATA_DIR ??= path.resolve("data");
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  const figures: Record<string, number> = {};
  try {
    const db = await getDb();
    await storeJudgedLibrary(db, USER, TUNE_CORPUS.tracks.slice(0, TRACKS));
    const { configuredEmbedder, configuredSecondStage } = await import("../../lib/embeddings/registry");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const { upgradeRound, UPGRADE_DUTY } = await import("../../lib/app/schedule-second-stage");
    const { searchLibrary } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const embedder = configuredEmbedder()!;
    await embedder.prepare();
    const firstStarted = performance.now();
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const [{ passages, hours }] = await db.$queryRawUnsafe<{ passages: number; hours: number }[]>(
      `SELECT (SELECT count(*) FROM "TranscriptPassage")::int AS passages,
              (SELECT sum(e) / 3600 FROM (SELECT max("end") AS e FROM "TranscriptPassage" GROUP BY "transcriptId") t)::float8 AS hours`,
    );
    figures["passages (the judged set's first tracks)"] = passages;
    figures["hours of speech"] = hours;
    figures["first stage: a passage embedded and stored (ms)"] = (performance.now() - firstStarted) / passages;
    const stage = configuredSecondStage()!;
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const state = { mark: null, backfilled: false };
    while (!state.backfilled) await upgradeRound(stage, state);
    const ms = performance.now() - started;
    delay.disable();
    figures["second stage: a passage read whole and stored, its model's reading included (ms)"] = ms / passages;
    figures["second stage: an hour of speech (s)"] = ms / 1000 / hours;
    figures["second stage: a 1,000-hour library upgraded at its share of a core (h)"] =
      ((ms / 1000 / hours / UPGRADE_DUTY) * 1000) / 3600;
    figures["event loop's delay while upgrading, p95 (ms)"] = delay.percentile(95) / 1e6;
    figures["event loop's delay while upgrading, max (ms)"] = delay.max / 1e6;
    global.gc?.();
    figures["resident memory added with the second stage loaded (MB)"] =
      (process.memoryUsage().rss - rssBefore) / 2 ** 20;

    const questions = TUNE_CORPUS.queries.map((j) => j.q);
    for (const mode of ["keyword", "hybrid"] as const) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++)
        for (const q of questions) {
          const t = performance.now();
          await searchLibrary(USER, searchQuerySchema.parse({ q, limit: "10", mode }));
          times.push(performance.now() - t);
        }
      times.sort((a, b) => a - b);
      const label = mode === "keyword" ? "keyword" : "fused, re-ranked by the second stage";
      figures[`query ${label}, p50 (ms)`] = percentile(times, 0.5);
      figures[`query ${label}, p95 (ms)`] = percentile(times, 0.95);
    }
    figures["query fused and re-ranked / keyword, p95"] =
      figures["query fused, re-ranked by the second stage, p95 (ms)"]! / figures["query keyword, p95 (ms)"]!;
    // The queries above grow the main thread's heap too: what the thread's end gives back is read beside them.
    global.gc?.();
    const rssBeforeRelease = process.memoryUsage().rss;
    stage.release();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    global.gc?.();
    figures["resident memory added after its thread is given back (MB)"] =
      (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    figures["resident memory given back as its thread ends (MB)"] =
      (rssBeforeRelease - process.memoryUsage().rss) / 2 ** 20;
  } finally {
    await closeDatabase();
    await database.drop();
  }
  return figures;
}
