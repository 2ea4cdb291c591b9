// Figures for voice-activity detection before the local recogniser: the recogniser's seconds
// and real-time factor, and its child's peak RSS, on two threads, for 10 minutes of audio
//   - speech only (espeak-ng, looped),
//   - half silence (30 s of that speech, 30 s of silence, ten times), recognised whole (before) and only
//     where the detector found speech (after),
// and how long a 10-minute silence-only file takes to end no_speech (decode + Silero VAD, no model loaded).
//
// The model is generated (test/whisper-model.ts) with the default model's dimensions (base: width 512,
// 8 heads, 6 layers each side, 80 mels, the multilingual vocabulary) and random weights, or the file at
// ASR_LOCAL_MODEL_PATH. What the figure can tell: the encoder's cost per 30-s window does not depend on the
// weights, so the share of windows VAD saves, and the memory, are real. What it cannot: a random model never
// says end-of-text, so each window decodes the most tokens whisper.cpp allows (temperature fallbacks are
// turned off here, or every window would be decoded six times); a trained model decodes a window of speech
// in a fraction of that, so the absolute seconds are an upper bound, not the default model's speed.
// BENCH_ASR_VAD_SECONDS sets the recognised files' length (default 120: two loaded cores).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { createLocalProvider } from "../../lib/asr/local";
import { localRuntime } from "../../lib/asr/local-runtime";
import { detectSpeech, type TimeRange } from "../../lib/asr/vad";
import { findExecutable } from "../../lib/process/media-tools";
import { speechWav } from "../../test/speech";
import { writeTinyWhisperModel } from "../../test/whisper-model";

/** The recognised files' length (default 2 minutes: the machine this runs on has two cores). */
const SECONDS = Number(process.env.BENCH_ASR_VAD_SECONDS ?? 120);
/** The silence-only file: 10 minutes (only decoded and run through VAD). */
const SILENCE_SECONDS = 600;
const THREADS = 2;

function peakRssMb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export async function benchAsrVad(): Promise<Record<string, number>> {
  const runtime = localRuntime("off");
  if (!runtime.available) throw new Error(runtime.reason);
  const ffmpeg = findExecutable("ffmpeg") ?? "ffmpeg";
  const dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-asr-vad-"));
  try {
    const model = process.env.ASR_LOCAL_MODEL_PATH ?? path.join(dir, "ggml-base-dims-random.bin");
    if (!process.env.ASR_LOCAL_MODEL_PATH) await writeTinyWhisperModel(model, { state: 512, heads: 8, layers: 6 });
    const sentence = await speechWav(
      path.join(dir, "sentence.wav"),
      "Bread rises because yeast makes gas. The gluten traps it, and the dough grows slowly in the warm kitchen.",
    );
    const ff = (...args: string[]) => execFileSync(ffmpeg, ["-v", "error", "-y", ...args]);
    const speechOnly = path.join(dir, "speech.wav");
    ff("-stream_loop", "-1", "-i", sentence, "-t", String(SECONDS), "-ac", "1", "-ar", "16000", speechOnly);
    const half = path.join(dir, "half-silence.wav");
    // 30 s of speech, then 30 s of silence, over and over.
    ff(
      "-i",
      speechOnly,
      "-af",
      `volume='if(lt(mod(t,60),30),1,0)':eval=frame`,
      "-t",
      String(SECONDS),
      "-ac",
      "1",
      "-ar",
      "16000",
      half,
    );
    const silence = path.join(dir, "silence.wav");
    ff("-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", String(SILENCE_SECONDS), silence);

    const provider = (onChild: (pid: number) => void) =>
      createLocalProvider({
        modelName: "bench",
        resolveModel: async () => model,
        bindingPath: runtime.bindingPath,
        concurrency: 1,
        threads: THREADS,
        temperatureInc: 0,
        ffmpegPath: ffmpeg,
        tmpDir: dir,
        onChild,
      });
    const recognise = async (file: string, speech?: TimeRange[]) => {
      let pid = 0;
      let peak = 0;
      const poll = setInterval(() => (peak = Math.max(peak, pid ? peakRssMb(pid) : 0)), 200);
      const started = performance.now();
      try {
        await provider((p) => (pid = p)).transcribe(file, { lang: "en", ...(speech ? { speech } : {}) });
      } finally {
        clearInterval(poll);
      }
      return { seconds: (performance.now() - started) / 1000, peak };
    };

    const timeDetect = async (file: string) => {
      const started = performance.now();
      const found = await detectSpeech(file, { ffmpegPath: ffmpeg, tmpDir: dir });
      return { ...found, seconds: (performance.now() - started) / 1000 };
    };

    const step = <T>(label: string, run: () => Promise<T>) => {
      console.error(`asr-vad: ${label}…`);
      return run();
    };
    const silent = await step("VAD on silence", () => timeDetect(silence));
    const halfFound = await step("VAD on half silence", () => timeDetect(half));
    const before = await step("recognising half silence whole", () => recognise(half));
    const after = await step("recognising half silence, speech only", () => recognise(half, halfFound.regions));
    const speechRun = await step("recognising speech only", () => recognise(speechOnly));
    const minutes = SECONDS / 60;
    return {
      [`model: ${process.env.ASR_LOCAL_MODEL_PATH ? "ASR_LOCAL_MODEL_PATH" : "generated, base dimensions, random weights"} (1 = real)`]:
        process.env.ASR_LOCAL_MODEL_PATH ? 1 : 0,
      "cores available": os.availableParallelism(),
      "recogniser threads": THREADS,
      [`${SILENCE_SECONDS / 60} min silence only: seconds to no_speech (decode + VAD, no model)`]: silent.seconds,
      [`${SILENCE_SECONDS / 60} min silence only: speech regions found`]: silent.regions.length,
      [`${minutes} min half silence: VAD seconds (decode + Silero)`]: halfFound.seconds,
      [`${minutes} min half silence: speech found, seconds`]: halfFound.speechSeconds,
      [`${minutes} min half silence, whole (before): recogniser seconds`]: before.seconds,
      [`${minutes} min half silence, whole (before): real-time factor`]: before.seconds / SECONDS,
      [`${minutes} min half silence, whole (before): child peak RSS, MB`]: before.peak,
      [`${minutes} min half silence, speech only (after): recogniser seconds`]: after.seconds,
      [`${minutes} min half silence, speech only (after): real-time factor (incl. VAD)`]:
        (after.seconds + halfFound.seconds) / SECONDS,
      [`${minutes} min half silence, speech only (after): child peak RSS, MB`]: after.peak,
      [`${minutes} min speech only: recogniser seconds`]: speechRun.seconds,
      [`${minutes} min speech only: real-time factor`]: speechRun.seconds / SECONDS,
      [`${minutes} min speech only: child peak RSS, MB`]: speechRun.peak,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
