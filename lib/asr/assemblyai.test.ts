import { operatorNote } from "@/lib/observability/failure-cause";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";
import { createAssemblyAiProvider, createdAt, handleAssemblyAiWebhook, nextPollDelay } from "./assemblyai";
import { AsrError } from "./types";

let fake: FakeAssemblyAi;
let dir: string;
let audio: string;
const AUDIO_BYTES = 300_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "asr-assemblyai-test-"));
  audio = path.join(dir, "audio.mp3");
  await writeFile(audio, randomBytes(AUDIO_BYTES));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  fake = await startFakeAssemblyAi({ apiKey: "good-key" });
});
afterEach(async () => {
  await fake.close();
});

const provider = (extra: Partial<Parameters<typeof createAssemblyAiProvider>[0]> = {}) =>
  createAssemblyAiProvider({ apiKey: "good-key", baseUrl: fake.origin, pollIntervalMs: 5, ...extra });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("AssemblyAI provider (real SDK against the fake)", () => {
  it("uploads, submits, polls through queued and processing, and returns words in seconds", async () => {
    fake.respondWith(() => ({
      words: [
        { text: "Good", start: 120, end: 380, speaker: "A" },
        { text: "morning,", start: 400, end: 910, speaker: "A" },
        { text: "everyone.", start: 1000, end: 1650, speaker: "A" },
      ],
      audioDuration: 2.5,
      queuedPolls: 2,
      processingPolls: 2,
    }));
    const progress: number[] = [];
    const result = await provider().transcribe(audio, { lang: "en-US", onProgress: (p) => progress.push(p) });

    expect(result).toEqual({
      words: [
        { text: "Good", start: 0.12, end: 0.38 },
        { text: "morning,", start: 0.4, end: 0.91 },
        { text: "everyone.", start: 1, end: 1.65 },
      ],
      text: "Good morning, everyone.",
      durationSeconds: 2.5,
      language: "en-US",
    });

    const calls = fake.requests.map((r) => `${r.method} ${r.path}`);
    const id = fake.submitted[0].id;
    expect(calls).toEqual([
      "POST /v2/upload",
      "POST /v2/transcript",
      ...Array(5).fill(`GET /v2/transcript/${id}`), // queued, queued, processing, processing, completed
    ]);
    expect(fake.requests.every((r) => r.authorization === "good-key")).toBe(true);
    expect(fake.requests[0]).toMatchObject({ contentType: "application/octet-stream", bytes: AUDIO_BYTES });
    expect(fake.uploads).toEqual([AUDIO_BYTES]);
    expect(fake.submitted[0].params).toMatchObject({
      audio_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/upload\//),
      language_code: "en_us",
      punctuate: true,
    });
    expect(fake.submitted[0].params).not.toHaveProperty("language_detection");
    expect(fake.submitted[0].uploadBytes).toBe(AUDIO_BYTES);

    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
  });

  it("asks for language detection when AssemblyAI has no code for the language, and reports what it found", async () => {
    fake.respondWith(() => ({ languageCode: "fr", words: [{ text: "Bonjour.", start: 0, end: 500 }] }));
    const result = await provider().transcribe(audio, { lang: "tlh" });
    expect(fake.submitted[0].params).toMatchObject({ language_detection: true });
    expect(fake.submitted[0].params).not.toHaveProperty("language_code");
    expect(result.language).toBe("fr");
    expect(result.durationSeconds).toBe(1);
  });

  it("sends the vocabulary as keyterms_prompt, AssemblyAI's list of phrases; none without one", async () => {
    await provider().transcribe(audio, { lang: "en", vocabulary: ["Kelly Byrne-Donoghue", "Wellbutrin XL 150mg"] });
    expect(fake.submitted[0].params.keyterms_prompt).toEqual(["Kelly Byrne-Donoghue", "Wellbutrin XL 150mg"]);
    await provider().transcribe(audio, { lang: "en" });
    expect(fake.submitted[1].params).not.toHaveProperty("keyterms_prompt");
  });

  it("maps regional and aliased languages", async () => {
    await provider().transcribe(audio, { lang: "pt-BR" });
    await provider().transcribe(audio, { lang: "en-GB" });
    expect(fake.submitted.map((s) => s.params.language_code)).toEqual(["pt", "en_uk"]);
  });

  it("turns status error into asr_failed with AssemblyAI's message", async () => {
    fake.respondWith(() => ({ error: "Audio duration is too short." }));
    const error = await rejection(provider().transcribe(audio, { lang: "en" }));
    expect(error).toBeInstanceOf(AsrError);
    expect(error).toMatchObject({ code: "asr_failed", retryable: false });
    expect((error as AsrError).message).toContain("Audio duration is too short.");
  });

  it("rejects a bad key as asr_rejected (401), not retryable, after the first request", async () => {
    const error = await rejection(
      createAssemblyAiProvider({ apiKey: "wrong", baseUrl: fake.origin }).transcribe(audio, { lang: "en" }),
    );
    expect(error).toMatchObject({ code: "asr_rejected", retryable: false, status: 401 });
    expect(operatorNote(error).detail).toContain("Authentication error, API token missing/invalid");
    expect((error as AsrError).message).toBe("Speech recognition is not available on this server right now.");
    expect(fake.requests.map((r) => r.path)).toEqual(["/v2/upload"]);
  });

  it("rejects a refused submit (400) as asr_rejected with AssemblyAI's message", async () => {
    fake.failNext({ status: 400, method: "POST", path: "/v2/transcript", error: 'Invalid speech_models: ["nope"]' });
    const error = await rejection(provider({ speechModels: ["nope"] }).transcribe(audio, { lang: "en" }));
    expect(error).toMatchObject({ code: "asr_rejected", retryable: false, status: 400 });
    expect(operatorNote(error).detail).toContain('Invalid speech_models: ["nope"]');
    expect(fake.requests[1].json).toMatchObject({ speech_models: ["nope"] });
  });

  it("fails retryably when AssemblyAI is down (5xx on upload)", async () => {
    fake.failNext(503);
    const error = await rejection(provider().transcribe(audio, { lang: "en" }));
    expect(error).toMatchObject({ code: "asr_failed", retryable: true, status: 503 });
  });

  it("fails retryably when AssemblyAI cannot be reached", async () => {
    const origin = fake.origin;
    await fake.close();
    fake = await startFakeAssemblyAi({ apiKey: "good-key" }); // for afterEach
    const error = await rejection(
      createAssemblyAiProvider({ apiKey: "good-key", baseUrl: origin }).transcribe(audio, { lang: "en" }),
    );
    expect(error).toMatchObject({ code: "asr_failed", retryable: true });
  });

  it("rides out a few failed status polls", async () => {
    fake.respondWith(() => ({ queuedPolls: 1, processingPolls: 1 }));
    fake.onSubmit(() => fake.failNext(500, 502));
    const result = await provider().transcribe(audio, { lang: "en" });
    expect(result.words.map((w) => w.text)).toEqual(["Hello", "world."]);
    expect(fake.requests.filter((r) => r.method === "GET")).toHaveLength(5);
  });

  it("backs off exponentially between polls, up to the cap", async () => {
    fake.respondWith(() => ({ queuedPolls: 2, processingPolls: 4 }));
    await provider({ pollIntervalMs: 20, maxPollIntervalMs: 50 }).transcribe(audio, { lang: "en" });
    const times = fake.requests.map((r) => r.at); // upload, submit, then the GETs
    const gaps = times.slice(2).map((t, i) => t - times[i + 1]);
    // Waits before each GET: at least 20, 30, 45, 50, 50, 50, 50 ms (timers never fire early; under load they fire
    // late, so the cap is checked on the schedule below, not on the clock).
    expect(gaps).toHaveLength(7);
    [20, 30, 45, 50, 50, 50, 50].forEach((min, i) => expect(gaps[i]).toBeGreaterThanOrEqual(min - 2));
  });

  it("waits 1.5× longer before each poll, never longer than the cap", () => {
    const schedule = [20];
    while (schedule.length < 7) schedule.push(nextPollDelay(schedule.at(-1)!, 50));
    expect(schedule).toEqual([20, 30, 45, 50, 50, 50, 50]);
  });

  it("gives up after maxWaitMs, retryably", async () => {
    fake.respondWith(() => ({ manual: true }));
    const error = await rejection(provider({ maxWaitMs: 60 }).transcribe(audio, { lang: "en" }));
    expect(error).toMatchObject({ code: "asr_failed", retryable: true });
    expect((error as Error).message).toMatch(/not done after/);
  });

  it("stops when aborted, with the abort reason", async () => {
    fake.respondWith(() => ({ manual: true }));
    const controller = new AbortController();
    fake.onSubmit(() => setTimeout(() => controller.abort(new Error("user went away")), 30));
    const error = await rejection(provider().transcribe(audio, { lang: "en", signal: controller.signal }));
    expect(error).toMatchObject({ message: "user went away" });
    expect(error).not.toBeInstanceOf(AsrError);
  });

  it("with a webhook URL, sends it and ends the wait when the webhook arrives", async () => {
    const deliveries: unknown[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        deliveries.push({ header: req.headers["x-verbatim-webhook"], body: JSON.parse(body) });
        const handled = handleAssemblyAiWebhook(body);
        res.writeHead(handled ? 200 : 400).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/assemblyai`;
    try {
      fake.respondWith(() => ({ manual: true, words: [{ text: "Hooked.", start: 0, end: 700 }] }));
      fake.onSubmit((s) => setTimeout(() => void fake.complete(s.id), 50));
      const result = await provider({
        pollIntervalMs: 60_000,
        webhookUrl,
        webhookAuthHeaderName: "x-verbatim-webhook",
        webhookAuthHeaderValue: "s3cret",
      }).transcribe(audio, { lang: "en" });

      expect(result.words).toEqual([{ text: "Hooked.", start: 0, end: 0.7 }]);
      // The webhook, not polling, said it was done: at most the first status read, never a second poll.
      expect(
        fake.requests.filter(
          (r) => r.method === "GET" && r.path.startsWith("/v2/transcript/") && !r.path.endsWith("/sentences"),
        ).length,
      ).toBeLessThanOrEqual(2);
      expect(fake.submitted[0].params).toMatchObject({
        webhook_url: webhookUrl,
        webhook_auth_header_name: "x-verbatim-webhook",
        webhook_auth_header_value: "s3cret",
      });
      expect(deliveries).toEqual([
        { header: "s3cret", body: { transcript_id: fake.submitted[0].id, status: "completed" } },
      ]);
      expect(fake.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("finds a submission whose answer was lost by its upload URL, so the retry pays nothing more", async () => {
    const p = provider();
    const uploadedAt = new Date();
    const { audioUrl } = await p.upload(audio, { lang: "en" });
    expect(await p.findSubmitted(audioUrl, uploadedAt, { lang: "en" })).toBeNull();

    // Only the submission whose answer never comes has a short deadline: the searches around it keep the
    // default, so a loaded machine's slow answer is not taken for a lost one.
    fake.setFault({ mode: "lost-answer", method: "POST", path: "/v2/transcript" });
    const lost = await rejection(provider({ requestTimeoutMs: 300 }).submit(audioUrl, { lang: "en" }));
    expect(lost).toBeInstanceOf(AsrError);
    expect(lost).toMatchObject({ code: "asr_failed", retryable: true });
    expect(fake.submitted).toHaveLength(1); // AssemblyAI took it; we never heard
    fake.setFault(null);

    const found = await p.findSubmitted(audioUrl, uploadedAt, { lang: "en" });
    expect(found).toEqual({ id: fake.submitted[0].id });
    const result = await p.waitFor(found!.id, { lang: "en" });
    expect(result.words.map((w) => w.text)).toEqual(["Hello", "world."]);
    expect(fake.submitted).toHaveLength(1);
  });

  it("pages back through newer transcripts (before_id, 200 a page) and stops at the upload time", async () => {
    const p = provider();
    const uploadedAt = new Date();
    const { audioUrl } = await p.upload(audio, { lang: "en" });
    const { id } = await p.submit(audioUrl, { lang: "en" });
    // One at a time, over one kept-alive connection: 250 sockets opened at once in a loaded worker have been reset.
    const others: number[] = [];
    for (let i = 0; i < 250; i++) {
      const res = await fetch(`${fake.origin}/v2/transcript`, {
        method: "POST",
        headers: { authorization: "good-key", "content-type": "application/json" },
        body: JSON.stringify({ audio_url: "https://example.com/other.mp3" }),
      });
      others.push(res.status);
      await res.arrayBuffer();
    }
    expect(new Set(others)).toEqual(new Set([200]));
    const lists = () => fake.requests.filter((r) => r.method === "GET" && r.path === "/v2/transcript").length;

    expect(await p.findSubmitted(audioUrl, uploadedAt, { lang: "en" })).toEqual({ id });
    expect(lists()).toBe(2); // 200 newer ones on the first page, ours on the second

    // Never submitted: the search ends where the list does.
    const { audioUrl: unsent } = await p.upload(audio, { lang: "en" });
    expect(await p.findSubmitted(unsent, uploadedAt, { lang: "en" })).toBeNull();
    expect(lists()).toBe(4);

    // Uploaded after everything listed (beyond the allowed clock skew): one page is enough to know.
    expect(await p.findSubmitted(unsent, new Date(Date.now() + 10 * 60_000), { lang: "en" })).toBeNull();
    expect(lists()).toBe(5);
  });

  it("reads AssemblyAI's created times as UTC, with or without a zone", () => {
    expect(createdAt("2023-11-02T21:49:25.586965")).toBe(Date.UTC(2023, 10, 2, 21, 49, 25, 586));
    expect(createdAt("2023-11-02T21:49:25Z")).toBe(Date.UTC(2023, 10, 2, 21, 49, 25));
    expect(createdAt("2023-11-02T23:49:25+02:00")).toBe(Date.UTC(2023, 10, 2, 21, 49, 25));
    expect(createdAt("yesterday")).toBeNaN();
  });

  it("handleAssemblyAiWebhook ignores bodies that are not AssemblyAI webhooks", () => {
    expect(handleAssemblyAiWebhook("not json")).toBeNull();
    expect(handleAssemblyAiWebhook({ foo: 1 })).toBeNull();
    expect(handleAssemblyAiWebhook({ transcript_id: "nobody-waits", status: "completed" })).toEqual({
      transcriptId: "nobody-waits",
      status: "completed",
      waiting: false,
    });
  });
});
