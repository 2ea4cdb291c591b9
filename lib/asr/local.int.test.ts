import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "@/lib/process/media-tools";
import { speechWav } from "@/test/speech";
import { writeTinyWhisperModel } from "@/test/whisper-model";
import { createLocalProvider, type LocalProviderOptions } from "./local";
import { localRuntime } from "./local-runtime";
import { AsrError } from "./types";

// The local provider with the real whisper.cpp runtime in its child process: a model that is not one
// is a clear, permanent error naming the settings; a stopped job kills the child.

let dir: string;
let speech: string;
let model: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-local-"));
  speech = path.join(dir, "speech.wav");
  await speechWav(speech, "A sentence for the local recogniser, long enough to keep it busy for a moment.");
  model = path.join(dir, "ggml-tiny-random.bin");
  await writeTinyWhisperModel(model);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function provider(modelPath: string, extra: Partial<LocalProviderOptions> = {}) {
  const runtime = localRuntime();
  if (!runtime.available) throw new Error(runtime.reason);
  return createLocalProvider({
    modelName: "test",
    resolveModel: async () => modelPath,
    bindingPath: runtime.bindingPath,
    concurrency: 1,
    threads: 1,
    ffmpegPath: findExecutable("ffmpeg") ?? undefined,
    tmpDir: dir,
    ...extra,
  });
}

describe("local provider", () => {
  it("a file that is not a whisper.cpp model: a permanent asr_unavailable naming ASR_LOCAL_MODEL_PATH and npm run model:download", async () => {
    const bad = path.join(dir, "not-a-model.bin");
    writeFileSync(bad, Buffer.alloc(4096, 7));
    const error = (await provider(bad)
      .transcribe(speech, { lang: "en" })
      .catch((e: unknown) => e)) as AsrError;
    expect(error).toBeInstanceOf(AsrError);
    expect(error).toMatchObject({ code: "asr_unavailable", retryable: false });
    expect(error.message).toContain("ASR_LOCAL_MODEL_PATH");
    expect(error.message).toContain("npm run model:download");
  });

  it("words in time order inside the audio, progress up to 1", async () => {
    const progress: number[] = [];
    const result = await provider(model).transcribe(speech, { lang: "en", onProgress: (p) => progress.push(p) });
    expect(result.durationSeconds).toBeGreaterThan(2);
    expect(result.words.length).toBeGreaterThan(0);
    for (const [i, word] of result.words.entries()) {
      expect(word.start).toBeGreaterThanOrEqual(i > 0 ? result.words[i - 1].start : 0);
      expect(word.end).toBeLessThanOrEqual(result.durationSeconds);
    }
    expect(progress.at(-1)).toBe(1);
  });

  it("aborting (the job stops) kills the child and rejects with the signal's reason", async () => {
    const controller = new AbortController();
    let pid = 0;
    const reason = new Error("job stopped");
    const run = provider(model, {
      onChild: (p) => {
        pid = p;
        controller.abort(reason);
      },
    }).transcribe(speech, { lang: "en", signal: controller.signal });
    await expect(run).rejects.toBe(reason);
    expect(pid).toBeGreaterThan(0);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});
