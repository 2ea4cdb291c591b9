// Where ffmpeg and ffprobe come from: a tool on PATH wins; with none on PATH, the builds npm installed
// (@ffmpeg-installer, @ffprobe-installer) run the app's real probe and conversion.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

import { convertForAsr, probeMedia } from "@/lib/media";

import { bundledBinary, bundledToolDirs, findExecutable, toolSearchPath } from "./media-tools";
import { runTool } from "./run";

const root = mkdtempSync(path.join(tmpdir(), "media-tools-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** A directory holding only what `files` names (name → shell script body). */
function binDir(name: string, files: Record<string, string> = {}): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  for (const [file, body] of Object.entries(files)) {
    writeFileSync(path.join(dir, file), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(dir, file), 0o755);
  }
  return dir;
}

/** Two seconds of a 440 Hz tone as 16-bit PCM WAV, 44.1 kHz stereo, written without any tool. */
function writeToneWav(file: string): void {
  const rate = 44_100;
  const channels = 2;
  const frames = rate * 2;
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < frames; i++) {
    const sample = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000);
    for (let c = 0; c < channels; c++) data.writeInt16LE(sample, (i * channels + c) * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([header, data]));
}

describe("media tools", () => {
  it("npm installed an ffmpeg and an ffprobe for this platform", () => {
    for (const tool of ["ffmpeg", "ffprobe"] as const) {
      const binary = bundledBinary(tool);
      expect(binary, tool).toMatch(new RegExp(`node_modules/@${tool}-installer/.+/${tool}$`));
      expect(findExecutable(tool, path.dirname(binary!))).toBe(binary);
    }
  });

  it("the search path is the system's first, then the bundled tools' directories", () => {
    expect(toolSearchPath("/opt/a:/opt/b").split(":")).toEqual(["/opt/a", "/opt/b", ...bundledToolDirs()]);
    expect(toolSearchPath("").split(":")).toEqual([...bundledToolDirs()]);
  });

  it("an ffmpeg on PATH is the one children run", async () => {
    const system = binDir("system", { ffmpeg: "echo system-ffmpeg" });
    vi.stubEnv("PATH", system);
    expect(findExecutable("ffmpeg")).toBe(path.join(system, "ffmpeg"));
    const run = await runTool("ffmpeg", ["-version"], { timeoutMs: 10_000 });
    expect(run.stdout.trim()).toBe("system-ffmpeg");
    // ffprobe is not in that directory: the bundled one fills in.
    expect(findExecutable("ffprobe")).toBe(bundledBinary("ffprobe"));
  });

  it("with no ffmpeg or ffprobe on PATH, the bundled ones probe and convert real audio", async () => {
    vi.stubEnv("PATH", binDir("empty"));
    expect(findExecutable("ffmpeg")).toBe(bundledBinary("ffmpeg"));
    expect(findExecutable("ffprobe")).toBe(bundledBinary("ffprobe"));
    // What a child such as yt-dlp finds when it looks ffmpeg up itself.
    const lookup = await runTool("/bin/sh", ["-c", "command -v ffmpeg"], { timeoutMs: 10_000 });
    expect(lookup.stdout.trim()).toBe(bundledBinary("ffmpeg"));

    const wav = path.join(root, "tone.wav");
    writeToneWav(wav);
    const probe = await probeMedia(wav);
    expect(probe).toMatchObject({ hasAudio: true, sampleRate: 44_100, channels: 2 });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);

    const converted = await convertForAsr(wav, path.join(root, "tone-asr"), { durationSeconds: probe.durationSeconds });
    const out = await probeMedia(converted.path);
    expect(out).toMatchObject({ hasAudio: true, channels: 1, codec: converted.codec === "opus" ? "opus" : "mp3" });
    expect(out.durationSeconds).toBeCloseTo(2, 0);
  });
});
