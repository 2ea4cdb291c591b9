// The two attacks of the fifth outside probe, against the built app on PostgreSQL (a fresh database) and on the
// embedded default, each with the app's limits lifted (RATE_LIMIT_MULTIPLIER=1000000: what the work itself
// costs) and with its real limits (1). Meanwhile /health is polled one request after another: its worst, p95 and
// median wait (goal: worst ≤ 200 ms), beside its median before, from a thread of its own.
// - saves: one user, two loops of saves for BENCH_ATTACK_SECONDS (default 15) on a transcript of 800 segments
//   over 20,000 s (5 h 33 min): one loop sends the probe's save (800 segments × 249 words of 19 characters
//   from a 2,000-word vocabulary, 4 MB: more text than the media holds), the other the heaviest save it
//   accepts (800 × 120 words of 7 characters: 96,000 words, under the 100,000 search tokens one correction may
//   hold, each save a new text).
// - readers: six anonymous readers, each at an address of its own (X-Forwarded-For, TRUSTED_PROXY_HOPS=1),
//   for BENCH_ATTACK_SECONDS, each fetching transcript.{vtt,srt,json,html} of that transcript published with
//   its heaviest correction, one after another.
// BENCH_ATTACK_PORT moves the app off 3470; BENCH_ATTACK_DB=postgres or embedded runs one kind.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "../../lib/db/pglite-extensions";
import { createMigratedTestDatabase } from "../../test/pg";
import { insertDoneEntries } from "../../lib/transcripts/history-queries";
import { createApiKey, startApp, type RunningApp } from "./server";

const PORT = Number(process.env.BENCH_ATTACK_PORT ?? 3470);
const SECONDS = Number(process.env.BENCH_ATTACK_SECONDS ?? 15);
const EMAIL = "attacks-bench@example.test";
const TRANSCRIPT_ID = "bench-attack-long";
const VIDEO_ID = "attacklongx";
const SEGMENTS = 800;
const SEGMENT_SECONDS = 25;
const KINDS = ["vtt", "srt", "json", "html"] as const;

const original = Array.from({ length: SEGMENTS }, (_, i) => ({
  start: i * SEGMENT_SECONDS,
  end: i * SEGMENT_SECONDS + SEGMENT_SECONDS - 0.5,
  text: `word${i}`,
}));

/** The probe's body: 249 words of 19 characters a segment, from a vocabulary of 2,000. */
const probeBody = JSON.stringify({
  segments: original.map((s, i) => ({
    start: s.start,
    end: s.end,
    text: Array.from({ length: 249 }, (_, w) => `p${String((i * 249 + w) % 2000).padStart(18, "0")}`).join(" "),
  })),
});

/** The heaviest save accepted: 120 words of seven characters a segment (validate.ts MAX_INDEX_TOKENS). */
const heaviestBody = (round: number) =>
  JSON.stringify({
    segments: original.map((s, i) => ({
      start: s.start,
      end: s.end,
      text: Array.from({ length: 120 }, (_, w) => `v${String((i * 120 + w + round) % 2000).padStart(6, "0")}`).join(
        " ",
      ),
    })),
  });

const percentile = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : NaN;
const median = (xs: number[]) => percentile(xs, 50);

/**
 * Polls /health one request after another until stopped: the worst, 95th percentile and median wait, in ms. In a thread of its
 * own, so that what this process does meanwhile (writing bodies, reading megabytes of answers) is not counted.
 */
function healthPoller(base: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     let running = true;
     const waits = [];
     parentPort.once("message", () => { running = false; });
     (async () => {
       while (running) {
         const t0 = performance.now();
         await (await fetch(workerData + "/health")).arrayBuffer();
         waits.push(performance.now() - t0);
       }
       parentPort.postMessage(waits);
     })();`,
    { eval: true, workerData: base },
  );
  return {
    stop: () =>
      new Promise<{ worst: number; p95: number; median: number }>((resolve) => {
        worker.once("message", (waits: number[]) => {
          void worker.terminate();
          resolve({ worst: Math.max(...waits), p95: percentile(waits, 95), median: median(waits) });
        });
        worker.postMessage("stop");
      }),
  };
}

async function calmHealth(base: string): Promise<number> {
  const waits: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await (await fetch(`${base}/health`)).arrayBuffer();
    waits.push(performance.now() - t0);
  }
  return median(waits);
}

/** Runs `loops` until SECONDS have passed, /health polled meanwhile; the statuses they met. */
async function underAttack(base: string, loops: ((count: (status: number) => void) => Promise<void>)[]) {
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const calm = await calmHealth(base);
  const poller = healthPoller(base);
  await Promise.all(loops.map((loop) => loop(count)));
  const health = await poller.stop();
  return { calm, health, statuses };
}

const until = () => {
  const end = performance.now() + SECONDS * 1000;
  return () => performance.now() < end;
};

async function saves(base: string, key: string) {
  const patch = async (body: string) => {
    const res = await fetch(`${base}/v1/transcripts/${TRANSCRIPT_ID}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  };
  const timesOk: number[] = [];
  let round = 1000;
  const result = await underAttack(base, [
    async (count) => {
      for (const going = until(); going();) count(await patch(probeBody));
    },
    async (count) => {
      for (const going = until(); going();) {
        const t0 = performance.now();
        const status = await patch(heaviestBody(++round));
        if (status === 200) timesOk.push(performance.now() - t0);
        count(status);
      }
    },
  ]);
  return { ...result, saveMs: median(timesOk) };
}

async function readers(base: string, slug: string) {
  return underAttack(
    base,
    Array.from({ length: 6 }, (_, reader) => async (count: (status: number) => void) => {
      for (let i = 0, going = until(); going(); i++) {
        const res = await fetch(`${base}/v1/public/${slug}/transcript.${KINDS[i % KINDS.length]}`, {
          headers: { "x-forwarded-for": `198.51.100.${reader + 1}` },
        });
        await res.arrayBuffer();
        count(res.status);
      }
    }),
  );
}

async function seedSql(query: (text: string, values: unknown[]) => Promise<{ rows: { id: string }[] }>) {
  const [user] = (await query(`SELECT "id" FROM "User" WHERE "email" = $1`, [EMAIL])).rows;
  const duration = SEGMENTS * SEGMENT_SECONDS;
  await query(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
     VALUES ($1, 'youtube', $2, 'en', 'captions', 'manual', 'A long talk', 'https://www.youtube.com/watch?v=' || $2, $3, $4)`,
    [TRANSCRIPT_ID, VIDEO_ID, duration, JSON.stringify(original)],
  );
  await insertDoneEntries(query, [
    {
      id: `${TRANSCRIPT_ID}-h`,
      userId: user!.id,
      platform: "youtube",
      videoId: VIDEO_ID,
      lang: "en",
      origin: "captions",
      transcriptId: TRANSCRIPT_ID,
      durationSeconds: duration,
    },
  ]);
}

/** The heaviest correction saved, then published: the slug the readers read. */
async function publishHeaviest(base: string, key: string): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const saved = await fetch(`${base}/v1/transcripts/${TRANSCRIPT_ID}`, {
    method: "PATCH",
    headers,
    body: heaviestBody(0),
  });
  if (saved.status !== 200) throw new Error(`the heaviest save answered ${saved.status}: ${await saved.text()}`);
  const published = await fetch(`${base}/v1/publish`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: `https://www.youtube.com/watch?v=${VIDEO_ID}`, lang: "en" }),
  });
  if (published.status !== 200) throw new Error(`publish answered ${published.status}`);
  return ((await published.json()) as { slug: string }).slug;
}

function figures(prefix: string, run: Awaited<ReturnType<typeof underAttack>> & { saveMs?: number }) {
  const out: Record<string, number> = {
    [`${prefix}: /health worst ms (goal ≤ 200)`]: run.health.worst,
    [`${prefix}: /health p95 ms (goal ≤ 100)`]: run.health.p95,
    [`${prefix}: /health median ms`]: run.health.median,
    [`${prefix}: /health median ms before`]: run.calm,
  };
  if (run.saveMs !== undefined) out[`${prefix}: accepted save ms (median)`] = run.saveMs;
  for (const [status, n] of [...run.statuses].sort((a, b) => a[0] - b[0])) out[`${prefix}: answers ${status}`] = n;
  return out;
}

async function attackKind(kind: "postgres" | "embedded"): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const database = kind === "postgres" ? await createMigratedTestDatabase() : null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-attacks-"));
  const settings = (multiplier: string) => ({
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    TRUSTED_PROXY_HOPS: "1",
    RATE_LIMIT_MULTIPLIER: multiplier,
    DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  let app: RunningApp | undefined;
  try {
    app = await startApp(PORT, settings("1000000"));
    const key = await createApiKey(app.baseUrl, EMAIL);
    if (database) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await seedSql((text, values) => client.query(text, values)).finally(() => client.end());
    } else {
      // The embedded database has one owner at a time: the app is stopped while its folder is seeded.
      await app.stop();
      app = undefined;
      const pglite = await PGlite.create({ dataDir: path.join(dataDir, "pglite"), extensions: PGLITE_EXTENSIONS });
      await seedSql((text, values) => pglite.query<{ id: string }>(text, values)).finally(() => pglite.close());
      app = await startApp(PORT, settings("1000000"));
    }
    const slug = await publishHeaviest(app.baseUrl, key);
    for (const [limits, multiplier] of [
      ["limits lifted", "1000000"],
      ["real limits", "1"],
    ] as const) {
      if (multiplier !== "1000000") {
        await app.stop();
        app = await startApp(PORT, settings(multiplier));
      }
      const label = `${kind}, ${limits}`;
      console.log(`${label}: saves…`);
      Object.assign(out, figures(`${label}, saves`, await saves(app.baseUrl, key)));
      console.log(`${label}: readers…`);
      Object.assign(out, figures(`${label}, 6 readers`, await readers(app.baseUrl, slug)));
    }
    return out;
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

export async function benchAttacks(): Promise<Record<string, number>> {
  const only = process.env.BENCH_ATTACK_DB;
  const out: Record<string, number> = {};
  for (const kind of ["postgres", "embedded"] as const)
    if (!only || only === kind) Object.assign(out, await attackKind(kind));
  return out;
}
