import { execFileSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { speech as spoken } from "@/test/speech";
import { writeTinyWhisperModel } from "@/test/whisper-model";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { resolveYtDlpBinary } from "@/lib/captions/ytdlp/run";
import { serveFile, startLocalServer, type LocalServer } from "@/test/media";
import { findExecutable } from "@/lib/process/media-tools";
import { waitUntil, withDeadline } from "@/test/wait";

// The local recogniser end to end, with the REAL whisper.cpp runtime (@fugood/node-whisper-<platform>)
// in its child process and a tiny random-weight model generated in whisper.cpp's own file format: a WAV
// (espeak-ng speech) is uploaded, POST /v1/transcript → 202 → the local runner converts it with real
// ffmpeg, recognises it locally → done. The model hears nothing real: these tests check the plumbing
// (child process, chunks, timestamps, segments, charging, retries), not the words.
//
// A caption-less YouTube video too: the real youtubei.js asks the fake YouTube (YOUTUBE_BASE_URL), which
// lists no captions, so the request becomes a recognition job; its audio is fetched by the REAL yt-dlp,
// started by the app exactly as always (lib/media/download.ts → runYtDlp: our arguments, deno, the
// guarded proxy) through a wrapper (YTDLP_PATH) that swaps the trailing `-- <url>` for
// `--load-info-json <file>`: an info JSON as YouTube's extractor would give, whose audio format is served
// by a local server. Not exercised: yt-dlp's YouTube extractor itself and its JS challenge solving
// (that needs YouTube); lib/captions/ytdlp/js-runtime.int.test.ts checks the runtime and the solver.

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
let youtube: FakeYoutube;
let cdn: LocalServer;
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;
/** Emits "settled" whenever the local runner has written a run of a job back (waits wake on it). */
const settled = new EventEmitter();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-local-asr-"));
  speech = await spoken(
    "Bread rises because yeast makes gas. The gluten traps it, and the dough grows in the warm kitchen.",
  );
  const wav = path.join(dataDir, "speech.wav");
  writeFileSync(wav, speech);
  const model = path.join(dataDir, "ggml-tiny-random.bin");
  await writeTinyWhisperModel(model);
  youtube = await startFakeYoutube();
  cdn = await startLocalServer();
  cdn.route("/videoplayback/audio.wav", serveFile(wav, "audio/wav"));
  const ytdlp = writeInfoJsonYtDlp(dataDir, wav);
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_PROVIDER: "local",
    ASR_LOCAL_MODEL_PATH: model,
    ASR_LOCAL_CONCURRENCY: "1",
    YOUTUBE_BASE_URL: youtube.url,
    YTDLP_PATH: ytdlp,
    // The fakes listen on 127.0.0.1: the app's guard lets that address through, and only that.
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });

  ctx = await useTestDatabase();
  const { appPipelines } = await import("@/lib/app/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
  runner = await startLocalRunner({
    pipelines: appPipelines,
    pollMs: 100,
    backoff: { baseMs: 50 },
    log: () => undefined,
    onSettled: () => settled.emit("settled"),
  });
  routes = {
    transcript: (await import("@/app/v1/transcript/route")).POST,
    job: (await import("@/app/v1/jobs/[job_id]/route")).GET,
    sign: (await import("@/app/v1/uploads/sign/route")).POST,
    put: (await import("@/app/uploads/[...path]/route")).PUT,
    health: (await import("@/app/health/route")).GET,
  };
  keys = await import("@/lib/auth/api-keys");
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
});

afterAll(async () => {
  await runner?.stop();
  await youtube?.close();
  await cdn?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The real yt-dlp behind a wrapper: every argument the app passes, except that `-- <url>` becomes
 * `--load-info-json` of a YouTube info JSON (the caption-less fake video, its audio on the local server).
 */
function writeInfoJsonYtDlp(dir: string, wav: string): string {
  const info = path.join(dir, "youtube.info.json");
  const seconds = Number(
    execFileSync(
      findExecutable("ffprobe") ?? "ffprobe",
      ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav],
      { encoding: "utf8" },
    ),
  );
  writeFileSync(
    info,
    JSON.stringify({
      id: FAKE_IDS.noCaptions,
      title: "Sourdough starter, day 1 to day 7 (timelapse, no talking)",
      extractor: "youtube",
      extractor_key: "Youtube",
      webpage_url: `https://www.youtube.com/watch?v=${FAKE_IDS.noCaptions}`,
      original_url: `https://www.youtube.com/watch?v=${FAKE_IDS.noCaptions}`,
      duration: Math.round(seconds),
      formats: [
        {
          format_id: "251",
          url: `${cdn.origin}/videoplayback/audio.wav`,
          ext: "wav",
          acodec: "pcm_s16le",
          vcodec: "none",
          abr: 256,
          protocol: "http",
        },
      ],
    }),
  );
  const wrapper = path.join(dir, "yt-dlp-info-json.mjs");
  writeFileSync(
    wrapper,
    `#!${process.execPath}
import { spawnSync } from "node:child_process";
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const args = dash === -1 ? argv : [...argv.slice(0, dash), "--load-info-json", ${JSON.stringify(info)}];
const run = spawnSync(${JSON.stringify(resolveYtDlpBinary())}, args, { stdio: "inherit" });
process.exit(run.status ?? 1);
`,
  );
  chmodSync(wrapper, 0o755);
  return wrapper;
}

async function userWithKey() {
  const user = await createUser(ctx.db);
  const { key } = await keys.ensureApiKey(user.id);
  return { user, auth: bearer(key!) };
}

/** Signs an upload and PUTs the WAV through the route handlers; resolves with its object path. */
async function upload(auth: Record<string, string>, name: string): Promise<string> {
  const signed = (
    await callRoute(routes.sign, "/v1/uploads/sign", {
      method: "POST",
      headers: auth,
      body: { filename: name, content_type: "audio/wav" },
    })
  ).json as { object_path: string; upload_url: string };
  const url = new URL(signed.upload_url);
  const segments = url.pathname
    .replace(/^\/uploads\//, "")
    .split("/")
    .map(decodeURIComponent);
  const request = new NextRequest(url, {
    method: "PUT",
    headers: { "content-type": "audio/wav", "content-length": String(speech.length) },
    body: speech,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await routes.put(request, { params: Promise.resolve({ path: segments }) });
  expect(response.status).toBeLessThan(300);
  return signed.object_path;
}

type VideoJob = {
  status: string;
  error: unknown;
  transcript: {
    source: string;
    served_by: string;
    title: string;
    duration_seconds: number;
    segments: Array<{ start: number; end: number; text: string }>;
  };
};

/** POST /v1/transcript for the fake's caption-less video: a 202 with a job (no captions in any language). */
async function requestVideo(auth: Record<string, string>, lang: string): Promise<string> {
  const res = await callRoute(routes.transcript, "/v1/transcript", {
    headers: auth,
    body: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.noCaptions}`, lang },
  });
  expect(res.status).toBe(202);
  return (res.json as { job_id: string }).job_id;
}

async function transcribeVideo(auth: Record<string, string>, lang: string): Promise<VideoJob> {
  return (await waitForJob(await requestVideo(auth, lang), auth)) as VideoJob;
}

function expectSegmentsInside(transcript: VideoJob["transcript"]): void {
  expect(transcript.duration_seconds).toBeGreaterThan(2);
  expect(transcript.segments.length).toBeGreaterThan(0);
  for (const segment of transcript.segments) {
    expect(segment.start).toBeGreaterThanOrEqual(0);
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(transcript.duration_seconds);
  }
}

/** GET /v1/jobs/{id} until the job is done or failed (`onPoll` runs before each look). */
async function waitForJob(jobId: string, auth: Record<string, string>, onPoll?: () => Promise<void>) {
  return waitUntil(
    `job ${jobId} to be done or failed`,
    async () => {
      await onPoll?.();
      const res = await callRoute(routes.job, `/v1/jobs/${jobId}?format=json`, {
        headers: auth,
        params: { job_id: jobId },
      });
      const body = res.json as { status: string };
      return body.status === "done" || body.status === "error" ? (res.json as Record<string, unknown>) : null;
    },
    {
      timeoutMs: 120_000,
      state: jobState(jobId),
      // The local runner's settled runs; the kill test's poll (onPoll) also looks for the recogniser to start.
      everyMs: onPoll ? 50 : 250,
      wakeOn: (wake) => {
        settled.on("settled", wake);
        return () => settled.off("settled", wake);
      },
    },
  );
}

/** For a wait's failure message: the job's row as the runner left it. */
function jobState(jobId: string) {
  return () =>
    ctx.db.job.findUnique({
      where: { id: jobId },
      select: { status: true, stage: true, attempts: true, errorCode: true, errorMessage: true, updatedAt: true },
    });
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
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { upload: objectPath, lang: "en" },
    });
    expect(res.status).toBe(202);
    const { job_id } = res.json as { job_id: string };

    const job = (await waitForJob(job_id, auth)) as {
      status: string;
      error: unknown;
      transcript: {
        source: string;
        served_by: string;
        duration_seconds: number;
        segments: Array<{ start: number; end: number; text: string }>;
      };
    };
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

  it("a caption-less YouTube video: 202 → done, its audio fetched by yt-dlp, segments inside it, source asr", async () => {
    const { auth } = await userWithKey();
    const job = await transcribeVideo(auth, "en");
    expect(job).toMatchObject({
      status: "done",
      error: null,
      transcript: { source: "asr", served_by: "local:tiny-random" },
    });
    expectSegmentsInside(job.transcript);
    // The audio came through the app's own run of yt-dlp, from the local "CDN", through the guard.
    expect(cdn.hits).toContain("/videoplayback/audio.wav");
  });

  it("the recogniser killed mid-job (kill -9): the step fails retryably, the job is retried and finishes; the app answers meanwhile", async () => {
    const { auth } = await userWithKey();
    const objectPath = await upload(auth, "kill.wav");
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { upload: objectPath, lang: "de" },
    });
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
    // It answered throughout: 200, or 503 where its database ping waited past its deadline beside the other suites
    // (its database, not the recogniser's death); never a 500, never no answer.
    expect(healthStatuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(healthStatuses).toContain(200);
  });

  it("on the Inngest driver too: the same upload and the caption-less video → done through run-pipeline's steps", async () => {
    // The local runner stops, so the job waits queued for the Inngest function (run by @inngest/test).
    await withDeadline("the local runner to stop", runner.stop());
    const { InngestTestEngine } = await import("@inngest/test");
    const { Inngest } = await import("inngest");
    const { createRunPipelineFunction } = await import("@/lib/jobs/drivers/inngest");
    const { appPipelines } = await import("@/lib/app/pipelines");
    const { JOB_REQUESTED } = await import("@/lib/jobs/drivers/inngest-client");
    const { user, auth } = await userWithKey();
    const objectPath = await upload(auth, "inngest.wav");
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { upload: objectPath, lang: "fr" },
    });
    expect(res.status).toBe(202);
    const { job_id } = res.json as { job_id: string };

    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    // @inngest/test runs the function's steps in a chain it does not await: a step that never ends leaves
    // execute() pending for ever. The deadline turns that into a failure that shows where the job stood, and
    // the steps' signal, aborted when the wait ends, stops a step still running (its recogniser child killed)
    // instead of leaving it to run on beside the next test.
    const runOnInngest = async (jobId: string) => {
      const steps = new AbortController();
      const fn = createRunPipelineFunction(new Inngest({ id: "verbatim", logger: quiet, internalLogger: quiet }), {
        pipelines: appPipelines,
        db: async () => ctx.db,
        signal: steps.signal,
      });
      try {
        return await withDeadline(
          `@inngest/test to run job ${jobId}'s pipeline to its end`,
          new InngestTestEngine({
            function: fn,
            events: [{ name: JOB_REQUESTED, data: { jobId, userId: user.id } }],
          }).execute(),
          // Minutes, not seconds: beside the other suites under `nice`, a recognition that takes a second alone ran
          // past 97 s (the recogniser alive and working, starved of the cores).
          { timeoutMs: 240_000, state: async () => ({ job: await jobState(jobId)(), recognisers: recogniserPids() }) },
        );
      } finally {
        steps.abort(new Error("the test stopped waiting for this run"));
      }
    };
    const { result, error } = await runOnInngest(job_id);
    expect(error).toBeUndefined();
    expect(result).toEqual({ jobId: job_id, finished: true });
    const job = (await waitForJob(job_id, auth)) as {
      status: string;
      transcript: { source: string; served_by: string; duration_seconds: number; segments: Array<{ end: number }> };
    };
    expect(job).toMatchObject({ status: "done", transcript: { source: "asr", served_by: "local:tiny-random" } });
    expect(Math.max(...job.transcript.segments.map((s) => s.end))).toBeLessThanOrEqual(job.transcript.duration_seconds);

    // The caption-less video on the same driver.
    const hits = cdn.hits.length;
    const videoJob = await requestVideo(auth, "de");
    const video = await runOnInngest(videoJob);
    expect(video.error).toBeUndefined();
    expect(video.result).toEqual({ jobId: videoJob, finished: true });
    const done = (await waitForJob(videoJob, auth)) as VideoJob;
    expect(done).toMatchObject({ status: "done", transcript: { source: "asr", served_by: "local:tiny-random" } });
    expectSegmentsInside(done.transcript);
    expect(cdn.hits.length).toBeGreaterThan(hits);
  }, 600_000);
});
