import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "@/lib/process/media-tools";
import { probeDuration } from "./ffmpeg";
import {
  buildSpeechAudio,
  joinedSeconds,
  SPEECH_ONLY_MAX_SHARE,
  speechOnlyPieces,
  toOriginalClock,
} from "./speech-audio";
import { JOIN_SILENCE_SECONDS, planSpeechChunks, toFileTime } from "./vad";

const ffmpeg = findExecutable("ffmpeg") ?? "ffmpeg";
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-speech-audio-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("speechOnlyPieces", () => {
  it("sends the whole file when the regions are unknown, empty, or cover 90 % or more of it", () => {
    expect(speechOnlyPieces(undefined, 100)).toBeNull();
    expect(speechOnlyPieces([], 100)).toBeNull();
    expect(speechOnlyPieces([{ start: 0, end: 90 }], 100)).toBeNull();
    expect(speechOnlyPieces([{ start: 0, end: 95 }], 100)).toBeNull();
    expect(SPEECH_ONLY_MAX_SHARE).toBe(0.9);
  });

  it("below the threshold: the regions as the local recogniser's planner joins them, in one piece list", () => {
    const regions = [
      { start: 1, end: 20 },
      { start: 70, end: 95.5 },
    ];
    const pieces = speechOnlyPieces(regions, 120);
    expect(pieces).toEqual(regions);
    expect(pieces).toEqual(planSpeechChunks(regions, Number.POSITIVE_INFINITY, 0)[0].pieces);
    expect(joinedSeconds(pieces!)).toBeCloseTo(19 + 25.5 + JOIN_SILENCE_SECONDS, 6);
  });
});

describe("toOriginalClock", () => {
  const pieces = [
    { start: 2, end: 10 },
    { start: 300, end: 305 },
  ];

  it("puts a word after a long pause back at its real time, and keeps the billed duration", () => {
    const result = toOriginalClock(
      {
        words: [
          { text: "early", start: 0.5, end: 1 },
          // 8 s of the first piece + 0.2 s of join silence: this word is 1 s into the second piece.
          { text: "later", start: 9.2, end: 9.7, estimated: true },
        ],
        text: "early later",
        durationSeconds: 13.2,
        language: "en",
      },
      pieces,
    );
    expect(result.words).toEqual([
      { text: "early", start: 2.5, end: 3 },
      { text: "later", start: 301, end: 301.5, estimated: true },
    ]);
    expect(result.durationSeconds).toBe(13.2);
    expect(result.words[1].start).toBe(toFileTime(pieces, 9.2));
  });

  it("a word in the join silence or spanning it stays in order, its end never before its start", () => {
    const result = toOriginalClock(
      {
        words: [{ text: "seam", start: 7.9, end: 8.3 }],
        text: "seam",
        durationSeconds: 13.2,
        language: null,
      },
      pieces,
    );
    expect(result.words[0].start).toBeCloseTo(9.9, 6);
    expect(result.words[0].end).toBeCloseTo(300.1, 6);
  });
});

describe("buildSpeechAudio (real ffmpeg)", () => {
  it("writes the pieces joined: exactly as long as the plan, in the converted audio's codec", async () => {
    const input = path.join(dir, "in.mp3");
    // 60 s of tone, converted as lib/media/convert.ts does (16 kHz mono MP3 32 kbit/s).
    execFileSync(ffmpeg, [
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:sample_rate=16000",
      "-t",
      "60",
      "-ac",
      "1",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "32k",
      input,
    ]);
    const pieces = [
      { start: 1.5, end: 6 },
      { start: 40, end: 47.25 },
    ];
    const output = path.join(dir, "speech.mp3");
    await buildSpeechAudio(input, pieces, output, { ffmpegPath: ffmpeg, tmpDir: dir });
    const seconds = await probeDuration(output);
    // 4.5 + 0.2 + 7.25 = 11.95 s; MP3 frames (72 ms at 16 kHz) round the container's figure up.
    expect(seconds).toBeGreaterThan(joinedSeconds(pieces) - 0.01);
    expect(seconds).toBeLessThan(joinedSeconds(pieces) + 0.1);
  });

  it("refuses an output that is not converted audio", async () => {
    await expect(
      buildSpeechAudio(path.join(dir, "in.mp3"), [{ start: 0, end: 1 }], path.join(dir, "x.wav")),
    ).rejects.toMatchObject({
      code: "asr_failed",
    });
  });
});
