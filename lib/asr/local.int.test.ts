import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

  it("the vocabulary reaches whisper.cpp as its initial prompt; auto: the language whisper.cpp heard is reported", async () => {
    let config: { prompt?: string; language?: string } = {};
    const result = await provider(model, {
      onChild: (pid) => {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        config = JSON.parse(argv[argv.length - 2]) as typeof config;
      },
    }).transcribe(speech, { lang: "auto", vocabulary: ["Verbatim", "whisper.cpp"] });
    expect(config).toMatchObject({ prompt: "Verbatim, whisper.cpp.", language: "auto" });
    // The random model hears some language; what matters is that the detected one comes back.
    expect(result.language).toMatch(/^[a-z]{2,3}$/);
  });

  it("speech regions: only they are heard (times stay on the file's clock); none: the model is not even looked up", async () => {
    const result = await provider(model).transcribe(speech, { lang: "en", speech: [{ start: 1, end: 2.5 }] });
    for (const word of result.words) {
      expect(word.start).toBeGreaterThanOrEqual(1);
      expect(word.end).toBeLessThanOrEqual(2.5);
    }
    let looked = false;
    const none = await provider(model, {
      resolveModel: async () => {
        looked = true;
        return model;
      },
    }).transcribe(speech, { lang: "en", speech: [] });
    expect(none.words).toEqual([]);
    expect(looked).toBe(false);
  });
});
