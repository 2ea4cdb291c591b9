// The batch bench's process (batch.ts): the app's route handlers and its local runner (JOB_CONCURRENCY 2, as
// `npm start` runs it) in one process, as in the app, on a PostgreSQL database of its own; prints one JSON line.
//
// One account sends 1,000 links (BENCH_BATCH_LINKS): 950 YouTube videos answered from captions by the YouTube fake (youtubei.js against
// YOUTUBE_BASE_URL) and 50 episodes' audio through speech recognition (the podcast host's fake; an
// OpenAI-compatible fake that answers after RECOGNITION_MS; the real download and ffmpeg). Another account's single episode
// link (a speech-recognition job) is timed from POST /v1/transcript to its job's `done`: first on the idle server,
// then sent while the batch runs. Its ratio is the figure to keep at or under 1.5.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { startFakePodcastServer } from "../../test/fakes/podcasts/server";
import { startFakeOpenAiAsr } from "../../test/fakes/openai-asr/server";
import { createMigratedTestDatabase } from "../../test/pg";

/** BENCH_BATCH_LINKS shrinks the batch (a twentieth of it audio) where a run of the whole would take too long. */
const LINKS = Number(process.env.BENCH_BATCH_LINKS ?? 1000);
/** The share of the links that are episodes to recognise (BENCH_BATCH_AUDIO_SHARE; 1: a podcast's backlog). */
const AUDIO = Math.round(LINKS * Number(process.env.BENCH_BATCH_AUDIO_SHARE ?? 0.05));
const CAPTIONED = LINKS - AUDIO;
const SINGLES = 3;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-batch-"));
const youtube = await startFakeYoutube();
const podcasts = await startFakePodcastServer();
const asr = await startFakeOpenAiAsr();
/**
 * How long the fake recogniser takes to answer (BENCH_BATCH_RECOGNITION_MS): a hosted provider takes seconds, and a
 * batch's recognitions that long are what another account's link would wait behind for a slot.
 */
const RECOGNITION_MS = Number(process.env.BENCH_BATCH_RECOGNITION_MS ?? 1_500);
asr.respondWith(async () => {
  await new Promise((resolve) => setTimeout(resolve, RECOGNITION_MS));
  return { words: [{ word: "Hello.", start: 0.1, end: 0.6 }] };
});
const database = await createMigratedTestDatabase();
Object.assign(process.env, {
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
  YOUTUBE_BASE_URL: youtube.url,
  ASR_OPENAI_BASE_URL: asr.origin,
  OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  RATE_LIMIT_MULTIPLIER: "0",
  LOG_LEVEL: "warn",
  SEARCH_DISTILLED_WORDS: "0",
  // The fake host's audio is a tone: no speech to find, and finding it is not what is measured here.
  ASR_VAD: "off",
  // Search by meaning's first model conversion (minutes of CPU) is not what is measured either: keyword search only.
  SEARCH_EMBEDDER: "off",
});

const { getDb } = await import("../../lib/db/client");
const { appPipelines } = await import("../../lib/app/pipelines");
const { startLocalRunner } = await import("../../lib/jobs/drivers/local");
const { ensureApiKey } = await import("../../lib/auth/api-keys");
const { callRoute } = await import("../../test/request");
const batches = (await import("../../app/v1/batches/route")).POST;
const batchRoute = (await import("../../app/v1/batches/[batch_id]/route")).GET;
const transcript = (await import("../../app/v1/transcript/route")).POST;
const db = await getDb();
const runner = await startLocalRunner({ pipelines: appPipelines, concurrency: 2, pollMs: 250, log: () => undefined });

async function account(name: string) {
  const user = await db.user.create({ data: { email: `${name}@example.test` } });
  return { authorization: `Bearer ${(await ensureApiKey(user.id)).key!}` };
}

/** Of each single link: seconds from its job's creation to its claim (its wait for a slot). */
const waits: { idle: number[]; during: number[] } = { idle: [], during: [] };

/** Seconds from POST /v1/transcript of a new episode to its job's `done`. */
async function single(headers: Record<string, string>, name: string, waited?: number[]): Promise<number> {
  const started = performance.now();
  const res = await callRoute(transcript, "/v1/transcript", {
    headers,
    body: { audio: `${podcasts.origin}/ex/${name}.mp3`, lang: "en" },
  });
  if (res.status !== 202) throw new Error(`POST /v1/transcript: ${res.status} ${res.text}`);
  const jobId = (res.json as { job_id: string }).job_id;
  for (;;) {
    const job = await db.job.findUniqueOrThrow({
      where: { id: jobId },
      select: { status: true, createdAt: true, claimedAt: true },
    });
    if (job.status === "done") {
      waited?.push((job.claimedAt!.getTime() - job.createdAt.getTime()) / 1000);
      return (performance.now() - started) / 1000;
    }
    if (job.status === "error") throw new Error(`job ${jobId} failed`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const figures: Record<string, number> = {};
try {
  const other = await account("bench-single");
  // The idle server: the single link alone (the first run warms the recogniser's path up and is not counted).
  await single(other, "warm-up");
  const idle: number[] = [];
  for (let i = 0; i < SINGLES; i++) idle.push(await single(other, `idle-${i}`, waits.idle));

  const owner = await account("bench-batch");
  const ids = Array.from({ length: CAPTIONED }, (_, i) => `bt${String(i).padStart(9, "0")}`);
  for (const id of ids) youtube.lookalikes.add(id);
  // An episode before every nineteenth video, so the batch has recognitions running from its start to its end.
  const links = ids.flatMap((id, i) => [
    ...(i % 19 === 0 && i / 19 < AUDIO ? [`${podcasts.origin}/ex/batch-${i / 19}.mp3`] : []),
    `https://www.youtube.com/watch?v=${id}`,
  ]);
  for (let i = links.length - ids.length; i < AUDIO; i++) links.push(`${podcasts.origin}/ex/batch-${i}.mp3`);
  const started = performance.now();
  const created = await callRoute(batches, "/v1/batches", { headers: owner, body: { links } });
  if (created.status !== 201) throw new Error(`POST /v1/batches: ${created.status} ${created.text}`);
  figures[`batch: POST /v1/batches (${LINKS} links) ms`] = performance.now() - started;
  const id = (created.json as { id: string }).id;

  // Another account's single link while the batch runs, each once the batch's own jobs fill the queue.
  const during: number[] = [];
  for (let i = 0; i < SINGLES; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    during.push(await single(other, `during-${i}`, waits.during));
  }
  let batch: { status: string; done: number; failed: number };
  for (;;) {
    batch = (await callRoute(batchRoute, `/v1/batches/${id}`, { headers: owner, params: { batch_id: id } }))
      .json as typeof batch;
    if (["done", "partial", "error"].includes(batch.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  figures[`batch: ${LINKS} links to the end, seconds`] = (performance.now() - started) / 1000;
  figures["batch: items done"] = batch.done;
  figures["batch: items failed"] = batch.failed;
  figures["another account's single link, idle server: median s"] = median(idle);
  figures["another account's single link, during the batch: median s"] = median(during);
  figures["another account's single link, during the batch: worst s"] = Math.max(...during);
  figures["another account's single link: during / idle (goal <= 1.5)"] = median(during) / median(idle);
  // Its wait for a slot (created to claimed) beside its run: what fair claiming and the kept slot decide.
  figures["another account's single link, idle server: median s waiting for a slot"] = median(waits.idle);
  figures["another account's single link, during the batch: median s waiting for a slot"] = median(waits.during);
} finally {
  await runner.stop({ timeoutMs: 5_000 });
  await db.$disconnect();
  await database.drop();
  await Promise.all([youtube.close(), podcasts.close(), asr.close()]);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(figures));
process.exit(0);
