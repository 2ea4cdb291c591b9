// Chunked transcription end to end: real ffmpeg cuts of generated tone "speech", sent to the fake
// OpenAI-compatible server, which hears the tones actually present in each upload (test/fakes/openai-asr/tones.ts).
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { generateToneAudio, recognizeTones, toneText, toneWords } from "@/test/fakes/openai-asr/tones";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import { segmentWords } from "./segment-words";
import type { Word } from "./types";

// Nine chunks at the upload limits below; every second of it is cut, re-encoded and decoded again.
const LONG_SECONDS = 120;
// Re-encoded at 8 kB/s into chunks of about 19 s, overlapping by 5 s.
const CHUNKED_UPLOAD_BYTES = 180_000;
let dir: string;
let longAudio: string;
let fake: FakeOpenAiAsr | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "asr-openai-int-"));
  longAudio = path.join(dir, "long.mp3");
  await generateToneAudio(longAudio, LONG_SECONDS, "32k"); // ~0.48 MB
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function toneServer(maxUploadBytes: number): Promise<FakeOpenAiAsr> {
  fake = await startFakeOpenAiAsr({ maxUploadBytes });
  fake.respondWith(async ({ audio, filename }) => {
    const words = await recognizeTones(audio, filename.split(".").pop()!);
    return { words, text: toneText(words), language: "english", duration: words.at(-1)?.end ?? 0 };
  });
  return fake;
}

/** The stitched words are exactly the tone words, in order, each once, at the right time. */
function expectToneWords(words: Word[], durationSeconds: number) {
  const expected = toneWords(durationSeconds);
  expect(words.map((w) => w.text)).toEqual(expected.map((w) => w.text));
  words.forEach((w, i) => {
    expect(Math.abs(w.start - expected[i].start), `start of word ${i} (${w.text})`).toBeLessThan(0.1);
    expect(Math.abs(w.end - expected[i].end), `end of word ${i} (${w.text})`).toBeLessThan(0.1);
  });
  for (let i = 1; i < words.length; i++) {
    expect(words[i].start).toBeGreaterThan(words[i - 1].end);
  }
}

describe("OpenAI-compatible provider, chunked", () => {
  it("cuts a file larger than maxUploadBytes into overlapping chunks and stitches them without duplicates", async () => {
    const server = await toneServer(CHUNKED_UPLOAD_BYTES);
    const progress: number[] = [];
    const result = await createOpenAiCompatibleProvider({
      baseUrl: server.origin,
      model: "whisper-1",
      maxUploadBytes: CHUNKED_UPLOAD_BYTES,
    }).transcribe(longAudio, { lang: "en", onProgress: (p) => progress.push(p) });

    expect(server.requests.length).toBeGreaterThanOrEqual(8);
    expect(server.requests.length).toBeLessThanOrEqual(10);
    for (const r of server.requests) {
      expect(r.status).toBe(200);
      expect(r.bodyBytes).toBeLessThanOrEqual(CHUNKED_UPLOAD_BYTES);
      expect(r.filename).toBe("audio.mp3");
      expect(r.params).toMatchObject({ model: "whisper-1", language: "en", response_format: "verbose_json" });
    }
    expectToneWords(result.words, LONG_SECONDS);
    expect(result.words.filter((w) => w.text.endsWith("."))).toHaveLength(LONG_SECONDS / 1.25 / 8); // punctuation from each chunk's text
    expect(result.durationSeconds).toBeCloseTo(LONG_SECONDS, 0);
    expect(result.language).toBe("en");
    expect(result.text.startsWith("alpha bravo charlie delta echo foxtrot golf hotel. india")).toBe(true);

    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBe(server.requests.length + 2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);

    const segments = segmentWords(result.words);
    expect(segments.length).toBeGreaterThan(LONG_SECONDS / 6);
    expect(segments.every((s) => s.text.length <= 84 && s.end - s.start <= 7)).toBe(true);
  });

  it("with chunkCodec copy, cuts the original packets (sized by the file's own bitrate) just as accurately", async () => {
    const server = await toneServer(CHUNKED_UPLOAD_BYTES);
    const result = await createOpenAiCompatibleProvider({
      baseUrl: server.origin,
      model: "whisper-1",
      maxUploadBytes: CHUNKED_UPLOAD_BYTES,
      chunkCodec: "copy",
    }).transcribe(longAudio, { lang: "en" });
    // 32 kbit/s copied: about 38 s per chunk.
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
    expect(server.requests.length).toBeLessThanOrEqual(5);
    expect(server.requests.every((r) => r.status === 200 && r.bodyBytes <= CHUNKED_UPLOAD_BYTES)).toBe(true);
    expectToneWords(result.words, LONG_SECONDS);
  });

  it("learns a smaller server limit from its 413 and cuts accordingly", async () => {
    const server = await toneServer(400_000);
    const result = await createOpenAiCompatibleProvider({ baseUrl: server.origin, model: "whisper-1" }).transcribe(
      longAudio,
      {
        lang: "en-US",
      },
    );
    const [first, ...rest] = server.requests;
    expect(first.status).toBe(413); // the whole file (under the default 25 MiB) is refused
    expect(rest.length).toBeGreaterThanOrEqual(3);
    expect(rest.every((r) => r.status === 200 && r.bodyBytes <= 400_000)).toBe(true);
    expectToneWords(result.words, LONG_SECONDS);
  });

  it("cuts by chunk length with a small overlap and re-encodes formats the server does not take", async () => {
    const source = path.join(dir, "short.ogg");
    await generateToneAudio(source, 100, "48k");
    const odd = path.join(dir, "short.opus-ish");
    await copyFile(source, odd);
    const server = await toneServer(26_214_400);
    const result = await createOpenAiCompatibleProvider({
      baseUrl: server.origin,
      model: "whisper-1",
      maxUploadBytes: 200_000, // 16 kHz mono MP3 at 64 kbit/s: ~20 s per chunk
      overlapSeconds: 3,
    }).transcribe(odd, { lang: "en" });
    expect(server.requests.length).toBeGreaterThanOrEqual(5);
    expect(server.requests.every((r) => r.filename === "audio.mp3" && r.status === 200)).toBe(true);
    expectToneWords(result.words, 100);
  });

  it("with chunkDir, a re-run after a failure sends only the chunks that had no answer yet", async () => {
    // An extension the server does not take: cut into ~20 s MP3 chunks (see the test above).
    const source = path.join(dir, "resume.opus-ish");
    await generateToneAudio(path.join(dir, "resume.ogg"), 100, "48k");
    await copyFile(path.join(dir, "resume.ogg"), source);
    const server = await toneServer(26_214_400);
    const provider = createOpenAiCompatibleProvider({
      baseUrl: server.origin,
      model: "whisper-1",
      maxUploadBytes: 200_000,
      overlapSeconds: 3,
      retries: 0,
    });
    // How many chunks the file takes, from a run without a folder.
    await provider.transcribe(source, { lang: "en" });
    const chunks = server.requests.length;
    expect(chunks).toBeGreaterThanOrEqual(5);
    server.requests.length = 0;

    // The third request is refused (400: not retried), as if the job had died there.
    let answered = 0;
    server.respondWith(async ({ audio, filename }) => {
      if (++answered === 2) server.failNext(400);
      const words = await recognizeTones(audio, filename.split(".").pop()!);
      return { words, text: toneText(words), language: "english", duration: words.at(-1)?.end ?? 0 };
    });
    const chunkDir = path.join(dir, "kept-chunks");
    await mkdir(chunkDir);
    await expect(provider.transcribe(source, { lang: "en", chunkDir })).rejects.toMatchObject({
      code: "asr_rejected",
      status: 400,
    });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200, 400]);

    // The re-run takes the two answered chunks from the folder and sends only the others.
    const result = await provider.transcribe(source, { lang: "en", chunkDir });
    const again = server.requests.slice(3);
    expect(again).toHaveLength(chunks - 2);
    expect(again.every((r) => r.status === 200)).toBe(true);
    expectToneWords(result.words, 100);
  });
});
