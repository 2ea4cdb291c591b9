import { describe, expect, it } from "vitest";
import { toWhisperLanguage } from "./language";
import { createLocalProvider, planChunks, tokensToWords, planSpeechOnlyChunks } from "./local";
import { segmentWords } from "./segment-words";

const BPS = 32_000; // 16 kHz s16le mono

describe("planChunks", () => {
  it("one chunk for short audio", () => {
    expect(planChunks(10 * BPS, 300, 5)).toEqual([{ index: 0, start: 0, end: 10, startByte: 0, endByte: 10 * BPS }]);
  });

  it("overlapping chunks that cover a 3-hour file, each at most the chunk length, on sample boundaries", () => {
    const total = 3 * 3600 * BPS + 2;
    const chunks = planChunks(total, 300, 5);
    expect(chunks[0]).toMatchObject({ start: 0, end: 300 });
    expect(chunks[1]).toMatchObject({ start: 295, end: 595 });
    for (const [i, c] of chunks.entries()) {
      expect(c.index).toBe(i);
      expect(c.end - c.start).toBeLessThanOrEqual(300);
      expect(c.startByte % 2).toBe(0);
      expect(c.endByte % 2).toBe(0);
      if (i > 0) expect(c.start).toBeCloseTo(chunks[i - 1].end - 5, 6);
    }
    expect(chunks.at(-1)!.endByte).toBe(total);
    expect(chunks.at(-1)!.end).toBeCloseTo(3 * 3600, 3);
  });

  it("no sliver chunk that lies wholly inside the previous one's overlap", () => {
    const chunks = planChunks(598 * BPS, 300, 5);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 300],
      [295, 595],
      [590, 598],
    ]);
    expect(planChunks(597 * BPS, 300, 5).map((c) => c.end)).toEqual([300, 595, 597]);
  });
});

describe("tokensToWords", () => {
  const chunk = { start: 295, end: 305 };

  it("joins tokens without a leading space to the word before, on the file's clock", () => {
    const words = tokensToWords(
      [
        { text: " Hel", t0: 0, t1: 200 },
        { text: "lo", t0: 200, t1: 400 },
        { text: " world", t0: 500, t1: 900 },
        { text: ".", t0: 900, t1: 950 },
      ],
      chunk,
    );
    expect(words).toEqual([
      { text: "Hello", start: 295, end: 295.4 },
      { text: "world.", start: 295.5, end: 295.95 },
    ]);
    // The tokens' own times are the words': the segment keeps them.
    expect(segmentWords(words)).toEqual([{ start: 295, end: 295.95, text: "Hello world.", words }]);
  });

  it("keeps times inside the chunk and skips special tokens and blanks", () => {
    const words = tokensToWords(
      [
        { text: "[_BEG_]", t0: 0, t1: 0 },
        { text: " ", t0: 0, t1: 10 },
        { text: " late", t0: 9000, t1: 30000 },
      ],
      chunk,
    );
    expect(words).toEqual([{ text: "late", start: 304, end: 305 }]);
  });
});

describe("toWhisperLanguage", () => {
  it("maps BCP-47 to Whisper's codes, unknown to auto", () => {
    expect(toWhisperLanguage("pt-BR")).toBe("pt");
    expect(toWhisperLanguage("en")).toBe("en");
    expect(toWhisperLanguage("jv")).toBe("jw");
    expect(toWhisperLanguage("xx")).toBe("auto");
    expect(toWhisperLanguage("auto")).toBe("auto");
  });
});

describe("prepare", () => {
  it("reports the model download as the job's stage", async () => {
    const provider = createLocalProvider({
      modelName: "base-q5_1",
      bindingPath: "/nowhere/index.node",
      concurrency: 1,
      threads: 1,
      resolveModel: async ({ onProgress }) => {
        onProgress?.(0.4);
        onProgress?.(1);
        return "/models/ggml-base-q5_1.bin";
      },
    });
    const stages: string[] = [];
    await provider.prepare!({ onStatus: (stage) => stages.push(stage) });
    expect(stages).toEqual(["downloading the speech model, 40 %", "downloading the speech model, 100 %"]);
    expect(provider.name).toBe("local:base-q5_1");
  });
});

describe("speech-only chunks", () => {
  it("token times in the joined audio land on the file's clock, inside the speech pieces", () => {
    const [chunk] = planSpeechOnlyChunks(
      [
        { start: 10, end: 12 },
        { start: 40, end: 41 },
      ],
      300,
      5,
    );
    expect(chunk).toMatchObject({ start: 10, end: 41, startByte: 320_000, endByte: 1_312_000 });
    const words = tokensToWords(
      [
        { text: " first", t0: 500, t1: 900 },
        { text: " second", t0: 2300, t1: 2800 },
      ],
      chunk,
    );
    expect(words).toEqual([
      { text: "first", start: 10.5, end: 10.9 },
      { text: "second", start: 40.1, end: 40.6 },
    ]);
  });
});
