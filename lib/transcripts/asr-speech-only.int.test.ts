import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinedSeconds } from "@/lib/asr/speech-audio";
import { findExecutable } from "@/lib/process/media-tools";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { speechWav } from "@/test/speech";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";

// AssemblyAI through the pipeline with the real voice-activity detector: a talk with a 30-s
// pause is uploaded as its speech only (the upload-audio step checkpoints the pieces it sent), and the
// words AssemblyAI times on that audio are stored on the original clock after the wait.
// (The OpenAI-compatible engine's case: asr-job.int.test.ts "a long pause…".)

const API_KEY = "test-assemblyai-key";
const ffmpeg = findExecutable("ffmpeg") ?? "ffmpeg";
const ffprobe = findExecutable("ffprobe") ?? "ffprobe";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakeAssemblyAi;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
let runner: { stop(): Promise<void> };
let routes: {
  transcript: typeof import("@/app/v1/transcript/route").POST;
  job: typeof import("@/app/v1/jobs/[job_id]/route").GET;
};
let keys: typeof import("@/lib/auth/api-keys");
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;
/** Seconds of each upload AssemblyAI was asked to transcribe (what it bills). */
const billed: number[] = [];

/** Duration of audio bytes, by ffprobe. */
function durationOf(audio: Buffer): number {
  const file = path.join(dataDir, `upload-${billed.length}.bin`);
  writeFileSync(file, audio);
  return Number(
    execFileSync(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
      .toString()
      .trim(),
  );
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-asr-speech-only-"));
  const first = await speechWav(path.join(dataDir, "first.wav"), "The first part of the talk is here.");
  const second = await speechWav(path.join(dataDir, "second.wav"), "And the second part follows the pause.");
  const paused = path.join(dataDir, "paused.wav");
  execFileSync(ffmpeg, [
    "-loglevel",
    "error",
    "-y",
    "-i",
    first,
    "-f",
    "lavfi",
    "-t",
    "30",
    "-i",
    "anullsrc=r=22050:cl=mono",
    "-i",
    second,
    "-filter_complex",
    "[0:a][1:a][2:a]concat=n=3:v=0:a=1",
    "-ac",
    "1",
    "-ar",
    "22050",
    paused,
  ]);
  const audio = readFileSync(paused);
  audioServer = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
    res.end(audio);
  });
  await new Promise<void>((resolve) => audioServer.listen(0, "127.0.0.1", resolve));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;

  fake = await startFakeAssemblyAi({ apiKey: API_KEY });
  fake.respondWith((submitted) => {
    const seconds = durationOf(submitted.uploadAudio!);
    billed.push(seconds);
    // A word near the start of what it heard, one 1.5 s before its end (in milliseconds, as AssemblyAI).
    return {
      queuedPolls: 0,
      processingPolls: 0,
      audioDuration: seconds,
      words: [
        { text: "First.", start: 500, end: 900 },
        { text: "Second.", start: Math.round((seconds - 1.5) * 1000), end: Math.round((seconds - 1.1) * 1000) },
      ],
    };
  });
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASSEMBLYAI_API_KEY: API_KEY,
    ASSEMBLYAI_BASE_URL: fake.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    // Speech is detected first here (the integration config turns it off for the tone fixtures).
    ASR_VAD: "silero",
  });
  ctx = await useTestDatabase();
  const { appPipelines } = await import("@/lib/app/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
  runner = await startLocalRunner({ pipelines: appPipelines, pollMs: 250, log: () => undefined });
  routes = {
    transcript: (await import("@/app/v1/transcript/route")).POST,
    job: (await import("@/app/v1/jobs/[job_id]/route")).GET,
  };
  keys = await import("@/lib/auth/api-keys");
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
});

afterAll(async () => {
  await runner?.stop();
  await fake?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitForJob(jobId: string, auth: Record<string, string>) {
  for (let i = 0; i < 600; i++) {
    const res = await callRoute(routes.job, `/v1/jobs/${jobId}`, { headers: auth, params: { job_id: jobId } });
    const body = res.json as { status: string };
    if (body.status === "done" || body.status === "error") return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe("AssemblyAI hears only the speech", () => {
  it("a 30-s pause is not uploaded; the words are stored on the original clock; the user is charged the whole audio", async () => {
    const user = await createUser(ctx.db);
    const { key } = await keys.ensureApiKey(user.id);
    const auth = bearer(key!);
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/paused.wav` },
    });
    expect(res.status).toBe(202);
    const jobId = (res.json as { job_id: string }).job_id;
    const done = (await waitForJob(jobId, auth)).json as {
      status: string;
      error: unknown;
      transcript: { duration_seconds: number };
    };
    expect(done).toMatchObject({ status: "done", error: null });

    const job = await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } });
    const checkpoints = job.checkpoints as Record<
      string,
      { speech?: Array<{ start: number; end: number }>; asrPieces?: unknown }
    >;
    const regions = checkpoints["prepare-audio"].speech!;
    expect(regions).toHaveLength(2);
    // The upload step kept what it sent, for the wait step to map with.
    expect(checkpoints["upload-audio"].asrPieces).toEqual(regions);

    const whole = done.transcript.duration_seconds;
    expect(whole).toBeGreaterThan(33);
    expect(fake.uploads).toHaveLength(1);
    expect(billed).toHaveLength(1);
    expect(billed[0]).toBeLessThan(whole - 25);
    expect(Math.abs(billed[0] - joinedSeconds(regions))).toBeLessThan(0.1);

    const stored = await ctx.db.transcript.findFirstOrThrow({
      where: { origin: "asr" },
      orderBy: { createdAt: "desc" },
    });
    const words = (stored.segments as Array<{ words?: Array<{ start: number; text: string }> }>).flatMap(
      (s) => s.words ?? [],
    );
    expect(words.map((w) => w.text)).toEqual(["First.", "Second."]);
    expect(words[0].start).toBeCloseTo(regions[0].start + 0.5, 1);
    expect(words[1].start).toBeGreaterThan(30);
    expect(Math.abs(words[1].start - (regions[1].end - 1.5))).toBeLessThan(0.1);
    expect((await getSubscription(user.id)).used_seconds).toBe(whole);
  });
});
