// What a server answers while search by meaning's second stage upgrades a library in the background
// (`npm run bench -- second-stage-health`): both judged corpora's tracks (test/fixtures/captions/judged-corpora.ts)
// stored again and again as one reader's library on PostgreSQL until it holds PASSAGES passages, every one embedded
// by the first stage. The built app (`npm start`) is started on it twice: with the second stage off, then on, as it
// reads every passage whole in its thread. Each time GET /health is asked one request after another, and the reader
// searches (words and meaning fused) beside it: for a third of WINDOW_SECONDS with the stage off, for WINDOW_SECONDS
// (or until every passage is read) with it on. Figures: /health's p50, p95 and slowest, the reader's search p95, how
// many passages the upgrade read, and /health's p95 during the upgrade against the stage off. The goal: ≤ 100 ms.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMigratedTestDatabase } from "../../test/pg";
import { JUDGED_CORPORA } from "../../test/fixtures/captions/judged-corpora";
import { storeJudgedLibrary } from "./judged-library";
import { percentile } from "./search";
import { createApiKey, startApp } from "./server";

const PASSAGES = Number(process.env.SECOND_STAGE_HEALTH_PASSAGES ?? 10_000);
const WINDOW_SECONDS = Number(process.env.SECOND_STAGE_HEALTH_SECONDS ?? 60);
const PORT = Number(process.env.BENCH_SECOND_STAGE_PORT ?? 3471);
const USER = "second-stage-health-reader";
const EMAIL = "second-stage-health@bench.test";
const QUESTIONS = [
  "how do rockets get to orbit",
  "what did people eat during the war",
  "why are some countries landlocked",
  "a machine that keeps the engine cool",
];

/**
 * GET /health one after another and a reader's searches beside it, for `seconds` or until `finished` (asked once a
 * second): each one's times in milliseconds, sorted.
 */
async function readers(
  baseUrl: string,
  key: string,
  seconds: number,
  finished: () => Promise<boolean>,
): Promise<{ health: number[]; searches: number[] }> {
  const health: number[] = [];
  const searches: number[] = [];
  const until = Date.now() + seconds * 1000;
  let over = false;
  const watch = setInterval(() => {
    void finished().then((done) => (over ||= done));
  }, 1000);
  const going = () => !over && Date.now() < until;
  const timed = async (url: string, into: number[], headers: Record<string, string> = {}) => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    into.push(performance.now() - started);
  };
  try {
    await Promise.all([
      (async () => {
        while (going()) await timed(`${baseUrl}/health`, health);
      })(),
      (async () => {
        for (let i = 0; going(); i++) {
          const q = encodeURIComponent(QUESTIONS[i % QUESTIONS.length]!);
          await timed(`${baseUrl}/v1/me/search?q=${q}&mode=hybrid`, searches, { authorization: `Bearer ${key}` });
        }
      })(),
    ]);
  } finally {
    clearInterval(watch);
  }
  const sorted = (times: number[]) => times.sort((a, b) => a - b);
  return { health: sorted(health), searches: sorted(searches) };
}

export async function benchSecondStageHealth(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  // The first stage's model files, made once here and found by the app in the same folder.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-second-stage-health-"));
  mkdirSync(path.join(dataDir, "models"), { recursive: true });
  process.env.DATA_DIR = dataDir;
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  const figures: Record<string, number> = {};
  let stop: (() => Promise<void>) | undefined;
  try {
    const db = await getDb();
    const count = async (table: string) =>
      (await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}"`))[0]!.n;
    for (let copy = 0; (await count("TranscriptPassage")) < PASSAGES; copy++)
      for (const [i, corpus] of JUDGED_CORPORA.entries())
        await storeJudgedLibrary(db, USER, corpus.tracks, { copy: copy * JUDGED_CORPORA.length + i, email: EMAIL });
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const embedder = configuredEmbedder()!;
    await embedder.prepare();
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const passages = await count("TranscriptPassage");
    figures["passages in the library"] = passages;

    const upgraded = async () => count("PassageSecondVector");
    let key: string | undefined;
    // The same readers with the second stage off first: the ratio says what the upgrade adds.
    for (const stage of ["off", "use-lite"] as const) {
      const app = await startApp(PORT, {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        AUTH_SECRET: process.env.AUTH_SECRET!,
        AUTH_DEV_LOGIN: "true",
        SEARCH_SECOND_STAGE: stage,
      });
      stop = () => app.stop();
      // Made once: the key's secret is shown only when it is made.
      key ??= await createApiKey(app.baseUrl, EMAIL);
      const before = await upgraded();
      const { health, searches } = await readers(
        app.baseUrl,
        key,
        stage === "off" ? WINDOW_SECONDS / 3 : WINDOW_SECONDS,
        async () => (stage === "off" ? false : (await upgraded()) >= passages),
      );
      await app.stop();
      stop = undefined;
      const label = stage === "off" ? "second stage off" : "during the upgrade";
      if (stage !== "off") figures["passages the second stage read during the window"] = (await upgraded()) - before;
      figures[`/health answers, ${label}`] = health.length;
      figures[`/health p50 (ms), ${label}`] = percentile(health, 0.5);
      figures[`/health p95 (ms), ${label}`] = percentile(health, 0.95);
      figures[`/health slowest (ms), ${label}`] = health.at(-1)!;
      figures[`a reader's search p95 (ms), ${label}`] = percentile(searches, 0.95);
    }
    figures["/health p95 during the upgrade / second stage off"] =
      figures["/health p95 (ms), during the upgrade"]! / figures["/health p95 (ms), second stage off"]!;
    figures["/health p95 during the upgrade (goal <= 100 ms)"] = figures["/health p95 (ms), during the upgrade"]!;
    return figures;
  } finally {
    await stop?.();
    await closeDatabase();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
