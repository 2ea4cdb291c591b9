import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinedSeconds } from "@/lib/asr/speech-audio";
import { findExecutable } from "@/lib/process/media-tools";
import { createUser } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { pausedTalk } from "@/test/media";
import { startTranscribeJobs, type TranscribeJobs } from "@/test/transcribe-jobs";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";

// AssemblyAI through the pipeline with the real voice-activity detector: a talk with a 30-s
// pause is uploaded as its speech only (the upload-audio step checkpoints the pieces it sent), and the
// words AssemblyAI times on that audio are stored on the original clock after the wait.
// (The OpenAI-compatible engine's case: asr-job.int.test.ts "a long pause…".)

const API_KEY = "test-assemblyai-key";
const ffprobe = findExecutable("ffprobe") ?? "ffprobe";

let jobs: TranscribeJobs;
let ctx: TranscribeJobs["ctx"];
let fake: FakeAssemblyAi;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
let routes: TranscribeJobs["routes"];
let keys: TranscribeJobs["keys"];
let getSubscription: TranscribeJobs["getSubscription"];
let waitForJob: TranscribeJobs["waitForJob"];
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
  const audio = await pausedTalk(dataDir);
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
  jobs = await startTranscribeJobs(dataDir, { ASSEMBLYAI_API_KEY: API_KEY, ASSEMBLYAI_BASE_URL: fake.origin });
  ({ ctx, routes, keys, getSubscription, waitForJob } = jobs);
});

afterAll(async () => {
  await jobs?.stop();
  await fake?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

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

    const words = await jobs.lastStoredWords();
    expect(words.map((w) => w.text)).toEqual(["First.", "Second."]);
    expect(words[0].start).toBeCloseTo(regions[0].start + 0.5, 1);
    expect(words[1].start).toBeGreaterThan(30);
    expect(Math.abs(words[1].start - (regions[1].end - 1.5))).toBeLessThan(0.1);
    expect((await getSubscription(user.id)).used_seconds).toBe(whole);
  });
});
