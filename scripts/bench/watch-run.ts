// The watch folder bench's process (watch.ts): the app's watch folder (lib/watch) and its local runner
// (JOB_CONCURRENCY 2, as `npm start` runs it) in one process, on a PostgreSQL database of its own; prints one JSON line.
//
// Recordings (1 s WAV files, each a different length, so a different content) are dropped in a folder watched at the
// defaults (WATCH_POLL_MS 2 s, WATCH_SETTLE_MS 5 s); each goes through the real ffmpeg and an OpenAI-compatible fake
// that answers after RECOGNITION_MS. A file's time is from its settling (dropped + the settle time) to its SRT beside
// it: first one file alone, then BENCH_WATCH_FILES (default 100) dropped at once.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeOpenAiAsr } from "../../test/fakes/openai-asr/server";
import { createMigratedTestDatabase } from "../../test/pg";
import { makeWav } from "../../test/uploads";

const FILES = Number(process.env.BENCH_WATCH_FILES ?? 100);
const POLL_MS = 2_000;
const SETTLE_MS = 5_000;
/** How long the fake recogniser takes to answer (BENCH_WATCH_RECOGNITION_MS): a hosted provider takes seconds. */
const RECOGNITION_MS = Number(process.env.BENCH_WATCH_RECOGNITION_MS ?? 1_500);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-watch-"));
const folder = path.join(dataDir, "watched");
mkdirSync(folder);
const asr = await startFakeOpenAiAsr();
asr.respondWith(async () => {
  await new Promise((resolve) => setTimeout(resolve, RECOGNITION_MS));
  return { words: [{ word: "Hello.", start: 0.1, end: 0.6 }] };
});
const database = await createMigratedTestDatabase();
Object.assign(process.env, {
  DATABASE_URL: database.url,
  DATA_DIR: path.join(dataDir, "app"),
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
  ASR_OPENAI_BASE_URL: asr.origin,
  OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  LOG_LEVEL: "warn",
  SEARCH_DISTILLED_WORDS: "0",
  // The files are tones: no speech to find, and finding it is not what is measured here.
  ASR_VAD: "off",
  SEARCH_EMBEDDER: "off",
});

const { getDb } = await import("../../lib/db/client");
const { appPipelines } = await import("../../lib/app/pipelines");
const { startLocalRunner } = await import("../../lib/jobs/drivers/local");
const { WatchFolder } = await import("../../lib/watch/watch-folder");
const db = await getDb();
const runner = await startLocalRunner({ pipelines: appPipelines, concurrency: 2, pollMs: 250, log: () => undefined });
await db.user.create({ data: { email: "watcher@example.test" } });
const watch = new WatchFolder({
  dir: folder,
  account: "watcher@example.test",
  formats: ["srt"],
  lang: "en",
  pollMs: POLL_MS,
  settleMs: SETTLE_MS,
});
let stopped = false;
const loop = (async () => {
  while (!stopped) {
    await watch.tick();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
})();

let made = 0;
/** Drops `count` new recordings at once; resolves with each one's seconds from settling to its SRT beside it. */
async function drop(count: number): Promise<number[]> {
  const names = Array.from({ length: count }, () => `talk-${String(made++).padStart(4, "0")}.wav`);
  const settledAt = performance.now() + SETTLE_MS;
  for (const [i, name] of names.entries())
    writeFileSync(path.join(folder, name), makeWav(1 + (made - count + i) / 1000));
  const seconds = new Map<string, number>();
  while (seconds.size < count) {
    for (const name of names)
      if (!seconds.has(name) && existsSync(path.join(folder, `${name}.srt`)))
        seconds.set(name, (performance.now() - settledAt) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return names.map((name) => seconds.get(name)!);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const figures: Record<string, number> = {};
try {
  const alone = await drop(1);
  figures["one file alone: settled to its SRT, s"] = alone[0]!;
  const many = sorted(await drop(FILES));
  figures[`${FILES} files at once: median settled to its SRT, s`] = many[Math.floor(many.length / 2)]!;
  figures[`${FILES} files at once: the last one's, s`] = many.at(-1)!;
  figures[`${FILES} files at once: files a minute`] = (FILES / many.at(-1)!) * 60;
  figures[`${FILES} files at once: jobs`] = await db.job.count();
} finally {
  stopped = true;
  await loop;
  await runner.stop({ timeoutMs: 5_000 });
  await db.$disconnect();
  await database.drop();
  await asr.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(figures));
process.exit(0);
