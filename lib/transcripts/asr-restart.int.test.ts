import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { speech } from "@/test/speech";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";
import { killableWorkers } from "@/test/jobs/helpers";
import { waitUntil } from "@/test/wait";

// A guard against a hang, not a timing: beside the other suites on two cores the workers these tests start and
// kill took minutes to come up.
vi.setConfig({ testTimeout: 10 * 60_000 });

// Paid recognition is submitted once, whatever happens to the runner: `npm run worker` (scripts/worker.ts
// through tsx) runs as a child process against the fake AssemblyAI, which keeps every transcript
// "processing" until the test completes it.
// - kill -9 after the submission, start a new worker: the fake sees exactly one upload and one submission,
//   and the job finishes with the transcript.
// - kill -9 after AssemblyAI accepted the submission but before the worker heard back (so before the
//   checkpoint): the new worker finds that transcript by its upload URL instead of paying for another.
// - SIGTERM while the job waits on AssemblyAI: the worker exits at once (the wait is interruptible) and
//   hands the job back, so another runner can claim it immediately.

const API_KEY = "test-assemblyai-key";
const SHORT_LEASE_MS = 1500;
const LONG_LEASE_MS = 60_000;

/** The stored transcript: AssemblyAI's words (ms) as one segment, each word with its own time. */
const BREAD_RISES = [
  {
    start: 0.1,
    end: 0.9,
    text: "Bread rises.",
    words: [
      { start: 0.1, end: 0.4, text: "Bread" },
      { start: 0.45, end: 0.9, text: "rises." },
    ],
  },
];
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakeAssemblyAi;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
let transcriptRoute: typeof import("@/app/v1/transcript/route").POST;
let keys: typeof import("@/lib/auth/api-keys");
const workers = killableWorkers();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-asr-restart-"));
  const audio = await speech("Bread rises because yeast makes gas.");
  audioServer = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
    res.end(audio);
  });
  await new Promise<void>((resolve) => audioServer.listen(0, "127.0.0.1", resolve));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;

  fake = await startFakeAssemblyAi({ apiKey: API_KEY });
  // Processing until complete(id): the first status request already says "processing".
  fake.respondWith(() => ({
    queuedPolls: 0,
    processingPolls: 1e9,
    words: [
      { text: "Bread", start: 100, end: 400 },
      { text: "rises.", start: 450, end: 900 },
    ],
  }));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASSEMBLYAI_API_KEY: API_KEY,
    ASSEMBLYAI_BASE_URL: fake.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  ctx = await useTestDatabase();
  transcriptRoute = (await import("@/app/v1/transcript/route")).POST;
  keys = await import("@/lib/auth/api-keys");
});

afterEach(() => workers.stopAll());

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * `npm run worker` as a child process. A worker that will be killed gets a short lease, so its job is taken
 * over soon; one that must keep its job gets a long one, so a heartbeat delayed by a loaded machine cannot
 * let the lease lapse and the job be claimed again (which counts as another attempt).
 */
const startWorker = (leaseMs: number) =>
  workers.start(["--lease-ms", String(leaseMs), "--poll-ms", "200", "--stop-timeout-ms", "120000"], {
    DATABASE_URL: ctx.url,
    DATA_DIR: dataDir,
    ASSEMBLYAI_API_KEY: API_KEY,
    ASSEMBLYAI_BASE_URL: fake.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });

function until<T>(
  what: string,
  read: () => Promise<T | null | undefined | false> | T | null | undefined | false,
): Promise<T> {
  return waitUntil(what, read, { timeoutMs: 180_000, everyMs: 100 });
}

async function submitJob(episode: string): Promise<string> {
  const user = await createUser(ctx.db);
  const { key } = await keys.ensureApiKey(user.id);
  const res = await callRoute(transcriptRoute, "/v1/transcript", {
    headers: bearer(key!),
    body: { audio: `${audioBase}/${episode}.wav` },
  });
  expect(res.status, res.text).toBe(202);
  return (res.json as { job_id: string }).job_id;
}

/** The job once its submission is checkpointed: the worker is waiting on AssemblyAI by id. */
async function submitted(jobId: string): Promise<string> {
  return until("the submission checkpoint", async () => {
    const job = await ctx.db.job.findUnique({ where: { id: jobId } });
    const checkpoint = (job?.checkpoints as Record<string, { asrTranscriptId?: string }>)["submit-recognition"];
    return checkpoint?.asrTranscriptId;
  });
}

const submissionsOf = (transcriptId: string) => fake.submitted.filter((s) => s.id === transcriptId).length;
const statusPolls = (transcriptId: string) =>
  fake.requests.filter((r) => r.method === "GET" && r.path === `/v2/transcript/${transcriptId}`).length;

describe("paid recognition across a killed runner", () => {
  it("kill -9 during the wait, restart: one upload, one submission, the job finishes", async () => {
    const jobId = await submitJob("killed");
    const first = startWorker(SHORT_LEASE_MS);
    const transcriptId = await submitted(jobId);
    await until("a status request from the first worker", () => statusPolls(transcriptId) > 0);
    const uploads = fake.uploads.length;
    const submissions = fake.submitted.length;
    await workers.stop(first.child);
    const killed = await ctx.db.job.findUnique({ where: { id: jobId } });
    expect(killed).toMatchObject({ status: "running" });

    const polled = statusPolls(transcriptId);
    const second = startWorker(LONG_LEASE_MS);
    // The new worker takes the job over once the dead one's lease expires, and asks for the same transcript.
    await until("a status request from the second worker", () => statusPolls(transcriptId) > polled);
    await fake.complete(transcriptId);
    const job = await until("the job to finish", async () => {
      const row = await ctx.db.job.findUnique({ where: { id: jobId } });
      return row?.status === "done" || row?.status === "error" ? row : null;
    });
    // The second worker claimed it once more.
    expect(job, second.output()).toMatchObject({ status: "done", attempts: killed!.attempts + 1 });
    expect(fake.uploads.length).toBe(uploads);
    expect(fake.submitted.length).toBe(submissions);
    expect(submissionsOf(transcriptId)).toBe(1);
    const transcript = await ctx.db.transcript.findUnique({ where: { id: job.transcriptId! } });
    expect(transcript?.segments).toEqual(BREAD_RISES);
  });

  it("kill -9 between AssemblyAI accepting the submission and its answer: the next worker finds it, submits nothing", async () => {
    const jobId = await submitJob("cut-off");
    fake.setFault({ mode: "lost-answer", method: "POST", path: "/v2/transcript" });
    const submissions = fake.submitted.length;
    const first = startWorker(SHORT_LEASE_MS);
    await until("AssemblyAI to accept the submission", () => fake.submitted.length > submissions);
    await workers.stop(first.child);
    fake.setFault(null);
    const accepted = fake.submitted.at(-1)!;
    const job = await ctx.db.job.findUnique({ where: { id: jobId } });
    expect(Object.keys(job!.checkpoints as object).sort()).toEqual(["prepare-audio", "upload-audio"]);
    const uploads = fake.uploads.length;

    const second = startWorker(LONG_LEASE_MS);
    expect(await submitted(jobId)).toBe(accepted.id);
    await fake.complete(accepted.id);
    const done = await until("the job to finish", async () => {
      const row = await ctx.db.job.findUnique({ where: { id: jobId } });
      return row?.status === "done" || row?.status === "error" ? row : null;
    });
    expect(done, second.output()).toMatchObject({ status: "done", attempts: job!.attempts + 1 });
    expect(fake.submitted.length).toBe(submissions + 1);
    expect(fake.uploads.length).toBe(uploads);
    expect(fake.requests.filter((r) => r.method === "GET" && r.path === "/v2/transcript").length).toBeGreaterThan(0);
    const transcript = await ctx.db.transcript.findUnique({ where: { id: done.transcriptId! } });
    expect(transcript?.segments).toEqual(BREAD_RISES);
  });

  it("SIGTERM during the wait: the worker exits at once and the job is claimable by another runner", async () => {
    const jobId = await submitJob("stopped");
    const worker = startWorker(LONG_LEASE_MS);
    const transcriptId = await submitted(jobId);
    await until("a status request", () => statusPolls(transcriptId) > 0);

    // The stop timeout is 120 s: only aborting the wait (not waiting for it) lets the worker exit now.
    expect(await workers.stop(worker.child, "SIGTERM"), worker.output()).toBe(0);
    const job = await ctx.db.job.findUnique({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "queued", leaseOwner: null, leaseUntil: null, attempts: 0 });
    expect(Object.keys(job!.checkpoints as object)).toEqual(
      expect.arrayContaining(["prepare-audio", "upload-audio", "submit-recognition"]),
    );
    expect(Object.keys(job!.checkpoints as object)).not.toContain("recognize-and-store");

    const { claimJob } = await import("@/lib/jobs/store");
    expect(await claimJob(ctx.db, "another-runner", 10_000)).toMatchObject({ id: jobId, leaseOwner: "another-runner" });
    expect(submissionsOf(transcriptId)).toBe(1);
  });
});
