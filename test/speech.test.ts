import { afterEach, describe, expect, it, vi } from "vitest";

import { speech } from "./speech";

/** The fields of a PCM WAV header that matter here, and the length of its audio. */
function wavInfo(wav: Buffer) {
  const sampleRate = wav.readUInt32LE(24);
  const channels = wav.readUInt16LE(22);
  const bytesPerSecond = wav.readUInt32LE(28);
  return {
    riff: wav.toString("ascii", 0, 4),
    wave: wav.toString("ascii", 8, 12),
    sampleRate,
    channels,
    seconds: (wav.length - 44) / bytesPerSecond,
  };
}

describe("speech for the tests without a system espeak-ng (the WebAssembly build from npm)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("speaks SSML with its pause into a 22.05 kHz mono WAV", async () => {
    vi.stubEnv("SPEECH_SYNTH", "wasm");
    const plain = wavInfo(await speech("Bread rises."));
    const paused = wavInfo(
      await speech('<speak>Bread rises.<break time="2s"/>Yeast makes gas.</speak>', { ssml: true }),
    );
    expect(plain).toMatchObject({ riff: "RIFF", wave: "WAVE", sampleRate: 22050, channels: 1 });
    expect(plain.seconds).toBeGreaterThan(0.5);
    expect(paused.seconds).toBeGreaterThan(plain.seconds + 2);
  }, 60_000);
});
