import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { probeDuration } from "@/lib/asr/ffmpeg";
import { findExecutable } from "@/lib/process/media-tools";
import { joinedSeconds } from "@/lib/asr/speech-audio";
import { speech } from "@/test/speech";
import { pausedTalk } from "@/test/media";
import { startTranscribeJobs, type TranscribeJobs } from "@/test/transcribe-jobs";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";

// The speech-recognition path end to end: POST /v1/transcript with an audio URL → 202 → the local
// runner fetches real espeak-ng speech through the outbound guard, probes and converts it with real
// ffmpeg, sends it to an OpenAI-compatible fake → GET /v1/jobs/{id} shows the transcript.

const WORDS = ["Bread", "rises", "because", "yeast", "makes", "gas."];

let jobs: TranscribeJobs;
let ctx: TranscribeJobs["ctx"];
let asr: FakeOpenAiAsr;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
let routes: TranscribeJobs["routes"];
let keys: TranscribeJobs["keys"];
let getSubscription: TranscribeJobs["getSubscription"];
let waitForJob: TranscribeJobs["waitForJob"];
let longSilence: Buffer | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-asr-"));
  const audio = await speech("Bread rises because yeast makes gas. The gluten traps it.");
  const silence = silentWav(20);
  const talk = await pausedTalk(dataDir);
  audioServer = http.createServer((req, res) => {
    if (req.url === "/episode.wav") {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
      res.end(audio);
    } else if (req.url === "/paused.wav") {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": talk.length });
      res.end(talk);
    } else if (req.url === "/silence.wav") {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": silence.length });
      res.end(silence);
    } else if (req.url === "/long-silence.mp3" && longSilence) {
      res.writeHead(200, { "content-type": "audio/mpeg", "content-length": longSilence.length });
      res.end(longSilence);
    } else if (req.url === "/page.html") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>not audio</html>");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => audioServer.listen(0, "127.0.0.1", resolve));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;

  asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: WORDS.map((word, i) => ({ word, start: 0.3 + i * 0.4, end: 0.6 + i * 0.4 })) }));
  jobs = await startTranscribeJobs(dataDir, { ASR_OPENAI_BASE_URL: asr.origin });
  ({ ctx, routes, keys, getSubscription, waitForJob } = jobs);
});

afterAll(async () => {
  await jobs?.stop();
  await asr?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

/** `seconds` of digital silence as a 16 kHz mono 16-bit WAV file. */
function silentWav(seconds: number): Buffer {
  const data = seconds * 16_000 * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

async function userWithKey() {
  const user = await createUser(ctx.db);
  const { key } = await keys.ensureApiKey(user.id);
  return { user, auth: bearer(key!) };
}

describe("speech recognition jobs", () => {
  it("202 → done: the transcript from real audio, charged the measured duration", async () => {
    const { user, auth } = await userWithKey();
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/episode.wav` },
    });
    expect(res.status).toBe(202);
    const accepted = res.json as { job_id: string; status: string };
    expect(accepted.status).toBe("queued");
    expect(res.headers.get("location")).toBe(`/v1/jobs/${accepted.job_id}`);

    const done = await waitForJob(accepted.job_id, auth, "srt");
    const job = done.json as {
      status: string;
      progress: number;
      error: unknown;
      transcript: { source: string; content: string; duration_seconds: number; platform: string };
    };
    expect(job).toMatchObject({ status: "done", progress: 1, error: null });
    expect(job.transcript).toMatchObject({ source: "asr", platform: "podcast", format: "srt" });
    expect(job.transcript.content).toMatch(/^1\n00:00:00,300 --> /);
    expect(job.transcript.content).toContain("Bread rises because yeast makes gas.");

    // The uploaded audio was converted: mono 16 kHz compressed, not the original WAV.
    const upload = asr.requests.at(-1)!;
    expect(upload.filename).toMatch(/\.(ogg|mp3)$/);
    // Word times asked for, and stored once with the transcript, each word with its own time.
    expect(upload.params["timestamp_granularities[]"]).toContain("word");
    const words = await jobs.lastStoredWords();
    expect(words.map((w) => w.text)).toEqual(WORDS);
    expect(words.map((w) => w.start)).toEqual(WORDS.map((_, i) => Math.round((0.3 + i * 0.4) * 1000) / 1000));
    // And the JSON format gives them as stored.
    const asJson = (await waitForJob(accepted.job_id, auth, "json")).json as {
      transcript: { segments: Array<{ words?: unknown[] }> };
    };
    expect(asJson.transcript.segments.flatMap((s) => s.words ?? [])).toEqual(words);

    const seconds = job.transcript.duration_seconds;
    expect(seconds).toBeGreaterThan(0);
    expect((await getSubscription(user.id)).used_seconds).toBe(seconds);
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: user.id } });
    expect(entry).toMatchObject({
      state: "done",
      jobId: accepted.job_id,
      durationSeconds: seconds,
      totalSeconds: seconds,
    });
    // Work files are removed.
    expect(existsSync(path.join(dataDir, "work", accepted.job_id))).toBe(false);
  });

  it("a second request for the same audio is answered from the store; the same user gets the running job back", async () => {
    const a = await userWithKey();
    const first = await callRoute(routes.transcript, "/v1/transcript", {
      headers: a.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "de" },
    });
    const again = await callRoute(routes.transcript, "/v1/transcript", {
      headers: a.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "de" },
    });
    expect(first.status).toBe(202);
    expect((again.json as { job_id: string }).job_id).toBe((first.json as { job_id: string }).job_id);
    await waitForJob((first.json as { job_id: string }).job_id, a.auth);

    const b = await userWithKey();
    const requestsBefore = asr.requests.length;
    const cached = await callRoute(routes.transcript, "/v1/transcript", {
      headers: b.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "de", format: "text" },
    });
    expect(cached.status).toBe(200);
    expect((cached.json as { content: string }).content).toContain("Bread rises");
    expect(asr.requests.length).toBe(requestsBefore);
  });

  it("a permanent failure ends in error with its message, and the reservation is refunded", async () => {
    const { user, auth } = await userWithKey();
    asr.failNext(400);
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "fr" },
    });
    const failed = await waitForJob((res.json as { job_id: string }).job_id, auth);
    expect(failed.json).toMatchObject({ status: "error", error: { code: "asr_rejected" }, transcript: null });
    expect((await getSubscription(user.id)).used_seconds).toBe(0);
    expect(await ctx.db.transcription.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({
      state: "error",
    });
  });

  it("silence only: no_speech without a single request to the recogniser, and the reservation refunded once", async () => {
    const { user, auth } = await userWithKey();
    const requestsBefore = asr.requests.length;
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/silence.wav` },
    });
    expect(res.status).toBe(202);
    const jobId = (res.json as { job_id: string }).job_id;
    const failed = await waitForJob(jobId, auth);
    expect(failed.json).toMatchObject({ status: "error", error: { code: "no_speech" }, transcript: null });
    expect(asr.requests.length).toBe(requestsBefore);
    expect((await getSubscription(user.id)).used_seconds).toBe(0);
    expect(await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      reservedSecs: 0,
      attempts: 1,
    });
  });

  it("a long pause: the paid recogniser is sent only the speech, the times are stored on the original clock, the charge is the whole audio", async () => {
    const { user, auth } = await userWithKey();
    const received: number[] = [];
    asr.respondWith(async (upload) => {
      // What a provider would bill: the duration of the audio it received.
      const file = path.join(dataDir, `received-${received.length}-${upload.filename}`);
      await writeFile(file, upload.audio);
      const seconds = await probeDuration(file);
      received.push(seconds);
      // A word near the start of what it heard, and one 1.5 s before its end (in the second sentence).
      return {
        words: [
          { word: "First.", start: 0.5, end: 0.9 },
          { word: "Second.", start: seconds - 1.5, end: seconds - 1.1 },
        ],
        duration: seconds,
      };
    });
    try {
      const res = await callRoute(routes.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${audioBase}/paused.wav` },
      });
      expect(res.status).toBe(202);
      const jobId = (res.json as { job_id: string }).job_id;
      const done = (await waitForJob(jobId, auth)).json as { status: string; transcript: { duration_seconds: number } };
      expect(done.status).toBe("done");

      const job = await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } });
      const regions = (job.checkpoints as { "prepare-audio": { speech: Array<{ start: number; end: number }> } })[
        "prepare-audio"
      ].speech;
      expect(regions).toHaveLength(2);
      const whole = done.transcript.duration_seconds;
      expect(whole).toBeGreaterThan(33);
      // One request, with the speech only: the 30-s pause is not sent (the regions joined with 0.2 s).
      expect(received).toHaveLength(1);
      expect(received[0]).toBeLessThan(whole - 25);
      expect(Math.abs(received[0] - joinedSeconds(regions))).toBeLessThan(0.1);

      const words = await jobs.lastStoredWords();
      expect(words.map((w) => w.text)).toEqual(["First.", "Second."]);
      // On the original clock: the first word 0.5 s into the first region, the second after the pause,
      // 1.5 s before the second region's end.
      expect(words[0].start).toBeCloseTo(regions[0].start + 0.5, 1);
      expect(words[1].start).toBeGreaterThan(30);
      expect(Math.abs(words[1].start - (regions[1].end - 1.5))).toBeLessThan(0.1);
      // The user is charged the media's duration, as before: the saving is the provider's bill.
      expect((await getSubscription(user.id)).used_seconds).toBe(whole);
    } finally {
      asr.respondWith(() => ({ words: WORDS.map((word, i) => ({ word, start: 0.3 + i * 0.4, end: 0.6 + i * 0.4 })) }));
    }
  });

  it("a vocabulary is sent as the recogniser's prompt and is its own cache entry", async () => {
    const a = await userWithKey();
    const first = await callRoute(routes.transcript, "/v1/transcript", {
      headers: a.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "it", vocabulary: ["Yeast", "Gluten"] },
    });
    expect(first.status).toBe(202);
    const done = await waitForJob((first.json as { job_id: string }).job_id, a.auth);
    expect(done.json).toMatchObject({ status: "done" });
    expect(asr.requests.at(-1)!.params.prompt).toBe("Yeast, Gluten.");
    const stored = await ctx.db.transcript.findMany({ where: { lang: "it", origin: "asr" } });
    expect(stored.map((t) => t.variant)).toEqual([expect.stringMatching(/^v-/)]);

    // Without the vocabulary (another user): not served from the entry recognised with it.
    const b = await userWithKey();
    const plain = await callRoute(routes.transcript, "/v1/transcript", {
      headers: b.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "it" },
    });
    expect(plain.status).toBe(202);
    await waitForJob((plain.json as { job_id: string }).job_id, b.auth);
    expect(asr.requests.at(-1)!.params).not.toHaveProperty("prompt");
    // The same terms in another order: served from the store.
    const c = await userWithKey();
    const again = await callRoute(routes.transcript, "/v1/transcript", {
      headers: c.auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "it", vocabulary: ["Gluten", "Yeast"] },
    });
    expect(again.status).toBe(200);
  });

  it("lang auto: no language is sent, and the transcript records the one the recogniser heard", async () => {
    const { auth } = await userWithKey();
    asr.respondWith(() => ({
      words: WORDS.map((word, i) => ({ word, start: 0.3 + i * 0.4, end: 0.6 + i * 0.4 })),
      language: "german",
    }));
    try {
      const res = await callRoute(routes.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${audioBase}/episode.wav`, lang: "auto" },
      });
      expect(res.status).toBe(202);
      const done = await waitForJob((res.json as { job_id: string }).job_id, auth);
      expect(done.json).toMatchObject({ status: "done", transcript: { lang: "de", source: "asr" } });
      expect(asr.requests.at(-1)!.params).not.toHaveProperty("language");
      // Asking again with auto is the same transcript, from the history, free.
      const again = await callRoute(routes.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${audioBase}/episode.wav`, lang: "auto" },
      });
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ lang: "de" });
    } finally {
      asr.respondWith(() => ({ words: WORDS.map((word, i) => ({ word, start: 0.3 + i * 0.4, end: 0.6 + i * 0.4 })) }));
    }
  });

  it("a small file longer than the allowance left: refused once probed, its conversion stopped there, nothing charged", async () => {
    const { user, auth } = await userWithKey();
    // 17 minutes of silence in 1 MB (8 kbit/s MP3): more than the free 15, and minutes of a core to encode for the
    // recogniser. Every ffmpeg run goes through a wrapper that logs its start and, if it gets there, its end.
    const realFfmpeg = findExecutable("ffmpeg")!;
    const tools = mkdtempSync(path.join(dataDir, "tools-"));
    const runs = path.join(tools, "runs.log");
    longSilence = execFileSync(realFfmpeg, [
      ...["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "1020"],
      ...["-c:a", "libmp3lame", "-b:a", "8k", "-f", "mp3", "pipe:1"],
    ]);
    writeFileSync(
      path.join(tools, "ffmpeg"),
      `#!/bin/sh\necho "start $$ $*" >> "${runs}"\n"${realFfmpeg}" "$@"\ncode=$?\necho "end $$ $code" >> "${runs}"\nexit $code\n`,
      { mode: 0o755 },
    );
    const systemPath = process.env.PATH;
    process.env.PATH = `${tools}${path.delimiter}${systemPath}`;
    try {
      const res = await callRoute(routes.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${audioBase}/long-silence.mp3` },
      });
      expect(res.status).toBe(202);
      const failed = await waitForJob((res.json as { job_id: string }).job_id, auth);
      expect(failed.json).toMatchObject({ status: "error", error: { code: "allowance_exhausted" }, transcript: null });
    } finally {
      process.env.PATH = systemPath;
    }
    expect((await getSubscription(user.id)).used_seconds).toBe(0);
    const lines = readFileSync(runs, "utf8").trim().split("\n");
    const conversion = lines.find((line) => line.startsWith("start ") && line.includes("-progress"));
    expect(conversion, lines.join("\n")).toBeDefined();
    const pid = conversion!.split(" ")[1];
    expect(lines.filter((line) => line.startsWith(`end ${pid} `))).toEqual([]);
  });

  it("no allowance left: 402 and no job", async () => {
    const { user, auth } = await userWithKey();
    const now = new Date();
    await ctx.db.usagePeriod.create({
      data: {
        userId: user.id,
        periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
        periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
        usedSeconds: 900,
      },
    });
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "it" },
    });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ code: "allowance_exhausted" });
    expect(await ctx.db.job.count({ where: { userId: user.id } })).toBe(0);
    expect(await ctx.db.transcription.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a link that is not audio is refused; other users' jobs, unknown ids and bad formats too", async () => {
    const { auth } = await userWithKey();
    const res = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/page.html` },
    });
    // page.html has no audio extension: it is not recognised as an audio link at all.
    expect(res.status).toBe(422);

    const own = await callRoute(routes.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${audioBase}/episode.wav`, lang: "es" },
    });
    const jobId = (own.json as { job_id: string }).job_id;
    const stranger = await userWithKey();
    const other = await callRoute(routes.job, `/v1/jobs/${jobId}`, {
      headers: stranger.auth,
      params: { job_id: jobId },
    });
    expect(other.status).toBe(404);
    const unknown = await callRoute(routes.job, "/v1/jobs/nope", { headers: auth, params: { job_id: "nope" } });
    expect(unknown.status).toBe(404);
    const badFormat = await callRoute(routes.job, `/v1/jobs/${jobId}?format=pdf`, {
      headers: auth,
      params: { job_id: jobId },
    });
    expect(badFormat.status).toBe(422);
    await waitForJob(jobId, auth);
  });
});
