import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { writeTinyWhisperModel } from "@/test/whisper-model";

// The local recogniser end to end, with the REAL whisper.cpp runtime (@fugood/node-whisper-<platform>)
// in its child process and a tiny random-weight model generated in whisper.cpp's own file format: a WAV
// (espeak-ng speech) is uploaded, POST /v1/transcript → 202 → the local runner converts it with real
// ffmpeg, recognises it locally → done. The model hears nothing real: these tests check the plumbing
// (child process, chunks, timestamps, segments, charging, retries), not the words.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dataDir: string;
let speech: Buffer;
let runner: { stop(): Promise<void> };
let routes: {
  transcript: typeof import("@/app/v1/transcript/route").POST;
  job: typeof import("@/app/v1/jobs/[job_id]/route").GET;
  sign: typeof import("@/app/v1/uploads/sign/route").POST;
  put: typeof import("@/app/uploads/[...path]/route").PUT;
  health: typeof import("@/app/health/route").GET;
};
let keys: typeof import("@/lib/auth/api-keys");
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-local-asr-"));
  const wav = path.join(dataDir, "speech.wav");
  execFileSync("espeak-ng", ["-w", wav, "Bread rises because yeast makes gas. The gluten traps it, and the dough grows in the warm kitchen."]);
  speech = readFileSync(wav);
  const model = path.join(dataDir, "ggml-tiny-random.bin");
  await writeTinyWhisperModel(model);
  Object.assign(process.env, { DATA_DIR: dataDir, ASR_PROVIDER: "local", ASR_LOCAL_MODEL_PATH: model, ASR_LOCAL_CONCURRENCY: "1" });

  ctx = await useTestDatabase();
  await import("@/lib/jobs/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs");
  runner = await startLocalRunner({ pollMs: 100, backoff: { baseMs: 50 }, log: () => undefined });
  routes = {
    transcript: (await import("@/app/v1/transcript/route")).POST,
    job: (await import("@/app/v1/jobs/[job_id]/route")).GET,
    sign: (await import("@/app/v1/uploads/sign/route")).POST,
    put: (await import("@/app/uploads/[...path]/route")).PUT,
    health: (await import("@/app/health/route")).GET,
  };
  keys = await import("@/lib/auth/api-keys");
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
}, 60_000);

afterAll(async () => {
  await runner?.stop();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function userWithKey() {
  const user = await createUser(ctx.db);
  const { key } = await keys.ensureApiKey(user.id);
  return { user, auth: bearer(key!) };
}

/** Signs an upload and PUTs the WAV through the route handlers; resolves with its object path. */
async function upload(auth: Record<string, string>, name: string): Promise<string> {
  const signed = (await callRoute(routes.sign, "/v1/uploads/sign", { method: "POST", headers: auth, body: { filename: name, content_type: "audio/wav" } })).json as { object_path: string; upload_url: string };
  const url = new URL(signed.upload_url);
  const segments = url.pathname.replace(/^\/uploads\//, "").split("/").map(decodeURIComponent);
  const request = new NextRequest(url, { method: "PUT", headers: { "content-type": "audio/wav", "content-length": String(speech.length) }, body: speech, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await routes.put(request, { params: Promise.resolve({ path: segments }) });
  expect(response.status).toBeLessThan(300);
  return signed.object_path;
}

async function waitForJob(jobId: string, auth: Record<string, string>, onPoll?: () => Promise<void>) {
  for (let i = 0; i < 600; i++) {
    await onPoll?.();
    const res = await callRoute(routes.job, `/v1/jobs/${jobId}?format=json`, { headers: auth, params: { job_id: jobId } });
    const body = res.json as { status: string };
    if (body.status === "done" || body.status === "error") return res.json as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** Pids of this test's recogniser children (their command line names the child script and our DATA_DIR). */
function recogniserPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes("whisper-child.cjs") && cmdline.includes(dataDir)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe("local speech recognition (whisper.cpp, generated tiny model)", () => {
  it("/health names the recogniser and its model", async () => {
    const res = await callRoute(routes.health, "/health");
    expect(res.json).toMatchObject({ speech_recognition: "local", speech_model: "tiny-random" });
  });

  it("an uploaded WAV: 202 → done, segments inside the audio, served_by local:<model>, charged the measured duration", async () => {
    const { user, auth } = await userWithKey();
    const objectPath = await upload(auth, "bread.wav");
    const res = await callRoute(routes.transcript, "/v1/transcript", { headers: auth, body: { upload: objectPath, lang: "en" } });
    expect(res.status).toBe(202);
    const { job_id } = res.json as { job_id: string };

    const job = (await waitForJob(job_id, auth)) as { status: string; error: unknown; transcript: { source: string; served_by: string; duration_seconds: number; segments: Array<{ start: number; end: number; text: string }> } };
    expect(job).toMatchObject({ status: "done", error: null });
    expect(job.transcript).toMatchObject({ source: "asr", served_by: "local:tiny-random" });
    const seconds = job.transcript.duration_seconds;
    expect(seconds).toBeGreaterThan(2);
    expect(job.transcript.segments.length).toBeGreaterThan(0);
    for (const segment of job.transcript.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(0);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      expect(segment.end).toBeLessThanOrEqual(seconds);
      expect(segment.text.trim()).not.toBe("");
    }
    expect((await getSubscription(user.id)).used_seconds).toBe(seconds);
    expect(existsSync(path.join(dataDir, "work", job_id))).toBe(false);
  });

  it("the recogniser killed mid-job (kill -9): the step fails retryably, the job is retried and finishes; the app answers meanwhile", async () => {
    const { auth } = await userWithKey();
    const objectPath = await upload(auth, "kill.wav");
    const res = await callRoute(routes.transcript, "/v1/transcript", { headers: auth, body: { upload: objectPath, lang: "de" } });
    expect(res.status).toBe(202);
    const { job_id } = res.json as { job_id: string };

    const killed: number[] = [];
    const healthStatuses: number[] = [];
    const job = (await waitForJob(job_id, auth, async () => {
      if (killed.length === 0) {
        for (const pid of recogniserPids()) {
          process.kill(pid, "SIGKILL");
          killed.push(pid);
        }
      }
      healthStatuses.push((await callRoute(routes.health, "/health")).status);
    })) as { status: string; transcript: { source: string } };

    expect(killed.length).toBe(1);
    expect(job).toMatchObject({ status: "done", transcript: { source: "asr" } });
    const row = await ctx.db.job.findUniqueOrThrow({ where: { id: job_id } });
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(new Set(healthStatuses)).toEqual(new Set([200]));
  });

  it("on the Inngest driver too: the same upload → done through run-pipeline's steps", async () => {
    // The local runner stops, so the job waits queued for the Inngest function (run by @inngest/test).
    await runner.stop();
    const { InngestTestEngine } = await import("@inngest/test");
    const { Inngest } = await import("inngest");
    const { createRunPipelineFunction } = await import("@/inngest/run-pipeline");
    const { JOB_REQUESTED } = await import("@/inngest/client");
    const { user, auth } = await userWithKey();
    const objectPath = await upload(auth, "inngest.wav");
    const res = await callRoute(routes.transcript, "/v1/transcript", { headers: auth, body: { upload: objectPath, lang: "fr" } });
    expect(res.status).toBe(202);
    const { job_id } = res.json as { job_id: string };

    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    const fn = createRunPipelineFunction(new Inngest({ id: "verbatim", logger: quiet, internalLogger: quiet }), { db: async () => ctx.db });
    const { result, error } = await new InngestTestEngine({ function: fn, events: [{ name: JOB_REQUESTED, data: { jobId: job_id, userId: user.id } }] }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ jobId: job_id, finished: true });
    const job = (await waitForJob(job_id, auth)) as { status: string; transcript: { source: string; served_by: string; duration_seconds: number; segments: Array<{ end: number }> } };
    expect(job).toMatchObject({ status: "done", transcript: { source: "asr", served_by: "local:tiny-random" } });
    expect(Math.max(...job.transcript.segments.map((s) => s.end))).toBeLessThanOrEqual(job.transcript.duration_seconds);
  });
});
