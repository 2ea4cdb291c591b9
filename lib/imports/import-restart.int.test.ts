import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { killableWorkers } from "@/test/jobs/helpers";
import { waitUntil } from "@/test/wait";

// An import survives its runner: `npm run worker` (scripts/worker.ts) runs as a child process; kill -9 it
// mid-batch, start another: the batch finishes with every episode transcribed once and charged once.

const EPISODES = 8;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakePodcastServer;
let asr: FakeOpenAiAsr;
let dataDir: string;
let keys: typeof import("@/lib/auth/api-keys");
let startRoute: typeof import("@/app/v1/import/route").POST;
const workers = killableWorkers();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-import-restart-"));
  fake = await startFakePodcastServer();
  asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: [{ word: "Hello.", start: 0.1, end: 0.6 }] }));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
  keys = await import("@/lib/auth/api-keys");
  startRoute = (await import("@/app/v1/import/route")).POST;
});

afterEach(() => workers.stopAll());

afterAll(async () => {
  await asr?.close();
  await fake?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const startWorker = () =>
  workers.start(["--lease-ms", "1500", "--poll-ms", "200", "--concurrency", "3"], {
    DATABASE_URL: ctx.url,
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    IMPORT_CONCURRENCY: "2",
  });

/** The batch's row and the end of the runner's output, for a wait's failure message. */
const batchState = (batchId: string, runner: ReturnType<typeof startWorker>) => async () => ({
  batch: await ctx.db.importBatch.findUnique({ where: { id: batchId } }),
  runner: runner.output().slice(-4000),
});
// A guard, not a timing: beside the whole suite on two cores, a runner's start (its modules compiled) and a few
// episodes are several times slower than alone. The test waits twice, so its own guard is longer than both.
const WAIT_MS = 240_000;
vi.setConfig({ testTimeout: 10 * 60_000 });

describe("an import across a killed runner", () => {
  it("kill -9 mid-batch, restart: every episode done once, charged once, no item lost", async () => {
    const user = await createUser(ctx.db);
    const { key } = await keys.ensureApiKey(user.id);
    const res = await callRoute(startRoute, "/v1/import", {
      headers: bearer(key!),
      body: { url: `${fake.origin}/generated/${EPISODES}.xml?prefix=restart&durations=0` },
    });
    expect(res.status).toBe(200);
    const batchId = (res.json as { batch_id: string }).batch_id;

    const first = startWorker();
    await waitUntil(
      `batch ${batchId} to have some episodes done`,
      async () => (await ctx.db.importBatch.findUnique({ where: { id: batchId } }))!.done >= 3,
      { timeoutMs: WAIT_MS, everyMs: 100, state: batchState(batchId, first) },
    );
    await workers.stop(first.child);
    const atKill = (await ctx.db.importBatch.findUnique({ where: { id: batchId } }))!;
    expect(atKill.done).toBeLessThan(EPISODES);

    const second = startWorker();
    const batch = await waitUntil(
      `batch ${batchId} to finish`,
      async () => {
        const row = await ctx.db.importBatch.findUnique({ where: { id: batchId } });
        return row && ["done", "partial", "error"].includes(row.status) ? row : null;
      },
      { timeoutMs: WAIT_MS, everyMs: 100, state: batchState(batchId, second) },
    );
    expect(batch).toMatchObject({ status: "done", total: EPISODES, done: EPISODES, failed: 0, skipped: 0 });
    const entries = await ctx.db.transcription.findMany({ where: { userId: user.id } });
    expect(entries).toHaveLength(EPISODES);
    expect(entries.every((e) => e.state === "done")).toBe(true);
    const transcribeJobs = await ctx.db.job.findMany({
      where: { userId: user.id, input: { path: ["pipeline"], equals: "transcribe" } },
    });
    expect(transcribeJobs).toHaveLength(EPISODES); // no episode started twice
    expect((await ctx.db.usagePeriod.findFirst({ where: { userId: user.id } }))?.usedSeconds).toBe(EPISODES);
    // Recognition requests: one per episode, plus at most one repeat per job that was mid-recognition at the kill.
    expect(asr.requests.length).toBeGreaterThanOrEqual(EPISODES);
    expect(asr.requests.length).toBeLessThanOrEqual(EPISODES + 3);
  }, 540_000);
});
