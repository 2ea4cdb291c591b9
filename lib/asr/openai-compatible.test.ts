import { operatorNote } from "@/lib/observability/failure-cause";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { generateToneAudio } from "@/test/fakes/openai-asr/tones";
import { createAsrProvider } from "./index";
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from "./openai-compatible";
import { segmentWords } from "./segment-words";
import { punctuateWords } from "./verbose-json";
import { AsrError } from "./types";

let dir: string;
let audio: string;
let fake: FakeOpenAiAsr | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "asr-openai-test-"));
  audio = path.join(dir, "speech.mp3");
  await generateToneAudio(audio, 6);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function start(options: Parameters<typeof startFakeOpenAiAsr>[0] = {}) {
  fake = await startFakeOpenAiAsr(options);
  return fake;
}

const provider = (server: FakeOpenAiAsr, extra: Partial<OpenAiCompatibleOptions> = {}) =>
  createOpenAiCompatibleProvider({ baseUrl: server.origin, model: "whisper-1", retryDelayMs: 1, ...extra });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("OpenAI-compatible provider", () => {
  it("posts the file as multipart with verbose_json, word and segment timestamps, language and model", async () => {
    const server = await start({ apiKey: "sk-test" });
    server.respondWith(() => ({
      words: [
        { word: "Olá", start: 0.1, end: 0.5 },
        { word: "mundo", start: 0.6, end: 1.1 },
        { word: "tudo", start: 1.3, end: 1.6 },
        { word: "bem", start: 1.7, end: 2.0 },
      ],
      text: "Olá, mundo! Tudo bem?",
      language: "portuguese",
      duration: 6.02,
    }));
    const progress: number[] = [];
    const result = await provider(server, { apiKey: "sk-test" }).transcribe(audio, {
      lang: "pt-BR",
      onProgress: (p) => progress.push(p),
    });

    expect(result).toEqual({
      words: [
        { text: "Olá,", start: 0.1, end: 0.5 },
        { text: "mundo!", start: 0.6, end: 1.1 },
        { text: "tudo", start: 1.3, end: 1.6 },
        { text: "bem?", start: 1.7, end: 2.0 },
      ],
      text: "Olá, mundo! Tudo bem?",
      durationSeconds: 6.02,
      language: "pt",
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ authorization: "Bearer sk-test", filename: "audio.mp3", status: 200 });
    expect(request.params).toEqual({
      model: "whisper-1",
      response_format: "verbose_json",
      "timestamp_granularities[]": ["word", "segment"],
      language: "pt",
    });
    expect(request.audioBytes).toBeGreaterThan(20_000);
    expect(progress).toEqual([0, 1]);
  });

  it("sends the vocabulary as OpenAI's prompt, one text field", async () => {
    const server = await start();
    await provider(server).transcribe(audio, { lang: "en", vocabulary: ["Kubernetes", "Verbatim", "PostgreSQL"] });
    expect(server.requests[0]).toMatchObject({ status: 200 });
    expect(server.requests[0].params.prompt).toBe("Kubernetes, Verbatim, PostgreSQL.");
    await provider(server).transcribe(audio, { lang: "en" });
    expect(server.requests[1].params).not.toHaveProperty("prompt");
  });

  it("drops a window Whisper itself calls silent (no_speech_prob > 0.6 with avg_logprob < -1), keeps the rest", async () => {
    const server = await start();
    server.respondWith(() => ({
      words: [
        { word: "Thank", start: 0.2, end: 0.5 },
        { word: "you.", start: 0.5, end: 0.9 },
        { word: "Bread", start: 3.1, end: 3.4 },
        { word: "rises.", start: 3.4, end: 3.9 },
      ],
      segments: [
        { start: 0, end: 2, text: " Thank you.", no_speech_prob: 0.92, avg_logprob: -1.31, compression_ratio: 0.7 },
        { start: 3, end: 4, text: " Bread rises.", no_speech_prob: 0.01, avg_logprob: -0.2, compression_ratio: 0.9 },
      ],
    }));
    const result = await provider(server).transcribe(audio, { lang: "en" });
    expect(result.words.map((w) => w.text)).toEqual(["Bread", "rises."]);
  });

  it("tolerates a base URL ending in /v1 and leaves out an unknown language", async () => {
    const server = await start();
    const result = await createOpenAiCompatibleProvider({ baseUrl: `${server.origin}/v1/`, model: "m" }).transcribe(
      audio,
      { lang: "und" },
    );
    expect(result.words.map((w) => w.text)).toEqual(["Hello", "world."]);
    expect(server.requests[0].params).not.toHaveProperty("language");
    expect(server.requests[0].authorization).toBeUndefined();
  });

  it("derives word times evenly within segments when the server gives none", async () => {
    const server = await start({ includeWords: false });
    server.respondWith(() => ({
      words: [
        { word: "The", start: 1, end: 1.2 },
        { word: "cat", start: 1.3, end: 1.5 },
        { word: "sat.", start: 1.6, end: 2 },
        { word: "Then", start: 3, end: 3.2 },
        { word: "it", start: 3.3, end: 3.4 },
        { word: "left.", start: 3.5, end: 4 },
      ],
    }));
    const { words, text } = await provider(server).transcribe(audio, { lang: "en" });
    expect(text).toBe("The cat sat. Then it left.");
    expect(words.map((w) => w.text)).toEqual(["The", "cat", "sat.", "Then", "it", "left."]);
    // Two segments (1–2 s, 3–4 s): each one's words share its span in proportion to their length.
    expect(words[0].start).toBe(1);
    expect(words[2].end).toBeCloseTo(2, 9);
    expect(words[3].start).toBe(3);
    expect(words[5].end).toBeCloseTo(4, 9);
    for (let i = 1; i < words.length; i++) {
      expect(words[i].start).toBeGreaterThanOrEqual(words[i - 1].end - 1e-9);
      expect(words[i].end).toBeGreaterThan(words[i].start);
    }
    // Shares of a segment's time, not the words' own: marked so, never shown as word times.
    expect(words.every((w) => w.estimated === true)).toBe(true);
    expect(segmentWords(words).some((s) => s.words)).toBe(false);
  });

  it("reads words given inside segments (faster-whisper style, with leading spaces)", async () => {
    const server = await start({ includeWords: false, wordsInSegments: true });
    const { words } = await provider(server).transcribe(audio, { lang: "en" });
    expect(words).toEqual([
      { text: "Hello", start: 0.2, end: 0.5 },
      { text: "world.", start: 0.6, end: 1.0 },
    ]);
  });

  it("rejects 4xx answers (not retryable) with the server's message", async () => {
    const server = await start({ apiKey: "right" });
    const badKey = await rejection(provider(server, { apiKey: "wrong" }).transcribe(audio, { lang: "en" }));
    expect(badKey).toBeInstanceOf(AsrError);
    expect(badKey).toMatchObject({ code: "asr_rejected", retryable: false, status: 401 });
    expect(operatorNote(badKey).detail).toContain("Incorrect API key provided.");
    expect(operatorNote(badKey).setting).toContain("ASR_OPENAI_API_KEY");

    server.failNext(400);
    const bad = await rejection(provider(server, { apiKey: "right" }).transcribe(audio, { lang: "en" }));
    expect(bad).toMatchObject({ code: "asr_rejected", retryable: false, status: 400 });
    expect(server.requests).toHaveLength(2); // no retries
  });

  it("retries 5xx and succeeds", async () => {
    const server = await start();
    server.failNext(500, 503);
    const result = await provider(server).transcribe(audio, { lang: "en" });
    expect(result.words).toHaveLength(2);
    expect(server.requests.map((r) => r.status)).toEqual([500, 503, 200]);
  });

  it("fails retryably after the retries on 5xx and on 429", async () => {
    const server = await start();
    server.failNext(502, 502, 502);
    const error = await rejection(provider(server, { retries: 2 }).transcribe(audio, { lang: "en" }));
    expect(error).toMatchObject({ code: "asr_failed", retryable: true, status: 502 });
    expect(server.requests).toHaveLength(3);

    server.failNext(429);
    const limited = await rejection(provider(server, { retries: 0 }).transcribe(audio, { lang: "en" }));
    expect(limited).toMatchObject({ code: "asr_failed", retryable: true, status: 429 });
  });

  it("fails retryably when the server cannot be reached", async () => {
    const server = await start();
    const origin = server.origin;
    await server.close();
    fake = null;
    const error = await rejection(
      createOpenAiCompatibleProvider({ baseUrl: origin, model: "m", retries: 0 }).transcribe(audio, { lang: "en" }),
    );
    expect(error).toMatchObject({ code: "asr_failed", retryable: true });
  });

  it("stops when aborted, with the abort reason", async () => {
    const server = await start();
    server.respondWith(() => new Promise((resolve) => setTimeout(() => resolve({ words: [] }), 2_000)));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled")), 50);
    const error = await rejection(provider(server).transcribe(audio, { lang: "en", signal: controller.signal }));
    expect(error).toMatchObject({ message: "cancelled" });
  });

  it("fails for a missing file without calling the server", async () => {
    const server = await start();
    const error = await rejection(provider(server).transcribe(path.join(dir, "nope.mp3"), { lang: "en" }));
    expect(error).toMatchObject({ code: "asr_failed", retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe("punctuateWords", () => {
  it("takes trailing punctuation from the text, in order", () => {
    const words = ["I", "don't", "know", "she", "said", "well", "maybe"].map((text, i) => ({
      text,
      start: i,
      end: i + 0.5,
    }));
    expect(punctuateWords(words, "“I don't know,” she said. Well... maybe?").map((w) => w.text)).toEqual([
      "I",
      "don't",
      "know,”",
      "she",
      "said.",
      "well...",
      "maybe?",
    ]);
  });

  it("leaves words that already carry punctuation alone", () => {
    const words = [
      { text: "Hi,", start: 0, end: 1 },
      { text: "you", start: 1, end: 2 },
    ];
    expect(punctuateWords(words, "Hi, you!")).toEqual(words);
  });
});

describe("createAsrProvider", () => {
  it("prefers AssemblyAI, then an OpenAI-compatible server, else none", () => {
    expect(createAsrProvider({ assemblyAiApiKey: "k", openAiBaseUrl: "http://x" })?.name).toBe("assemblyai");
    expect(createAsrProvider({ openAiBaseUrl: "http://x", openAiModel: "whisper-large-v3" })?.name).toBe(
      "openai-compatible",
    );
    expect(createAsrProvider({ assemblyAiApiKey: "", openAiApiKey: "sk" })).toBeNull();
    expect(createAsrProvider({})).toBeNull();
  });
});
