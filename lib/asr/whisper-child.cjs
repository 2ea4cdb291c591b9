// The local recogniser's child process (lib/asr/local.ts starts it through lib/process/run.ts): loads the
// whisper.cpp binding and the model, then recognises the given chunks of a raw 16 kHz mono s16le file one
// after another, reading only one chunk into memory at a time. It prints one JSON object per line:
//   {"type":"progress","index":i,"fraction":f}    whisper.cpp's progress within chunk i
//   {"type":"chunk","index":i,"language":"en","segments":[{"text":" w","t0":ms,"t1":ms}]}   chunk i done (times
//     in the chunk; language: the one whisper.cpp heard or was told)
// A chunk is one byte range of the file, or (speech found by lib/asr/vad.ts) several, played one after
// another with `joinSilenceBytes` of silence between them. `prompt` is whisper.cpp's initial prompt (the
// job's vocabulary).
//   {"type":"error","code":"model_invalid"|"failed","message":"..."}      then it exits 1
// A native crash or an out-of-memory kill ends it without a line: the parent sees the exit.
// Known quirk of the binding (1.1.1): when whisper_full fails (or throws, e.g. a vocabulary without " "),
// its promise never settles; the event loop then empties and this process exits 0 with chunks missing,
// which the parent reports as a retryable failure (and its deadline covers any other hang).
// Plain CommonJS with no imports from the app, so `node lib/asr/whisper-child.cjs` runs it as it is.
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS script run by node as it is */
"use strict";

const fs = require("node:fs");

const config = JSON.parse(process.argv[2] || "{}");

function emit(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function fail(code, message) {
  emit({ type: "error", code, message });
  process.exitCode = 1;
}

async function main() {
  let binding;
  try {
    binding = require(config.binding);
  } catch (error) {
    fail("runtime_missing", `The speech recognition runtime ${config.binding} could not be loaded: ${error.message}`);
    return;
  }
  let context;
  try {
    context = new binding.WhisperContext({ filePath: config.model, useGpu: Boolean(config.gpu) });
  } catch (error) {
    fail("model_invalid", `The speech model ${config.model} could not be loaded: ${error.message}`);
    return;
  }
  const fd = fs.openSync(config.pcm, "r");
  try {
    for (const chunk of config.chunks) {
      const pieces = chunk.pieces || [{ startByte: chunk.startByte, endByte: chunk.endByte }];
      const gap = config.joinSilenceBytes || 0;
      const length = pieces.reduce((n, p) => n + (p.endByte - p.startByte), 0) + gap * (pieces.length - 1);
      const pcm = Buffer.alloc(length);
      let at = 0;
      for (const piece of pieces) {
        fs.readSync(fd, pcm, at, piece.endByte - piece.startByte, piece.startByte);
        at += piece.endByte - piece.startByte + gap;
      }
      const job = context.transcribeData(pcm.buffer, {
        language: config.language || "auto",
        ...(config.prompt ? { prompt: config.prompt } : {}),
        ...(typeof config.temperatureInc === "number" ? { temperatureInc: config.temperatureInc } : {}),
        maxThreads: config.threads,
        tokenTimestamps: true,
        // One token per segment: the tokens' own timestamps, joined into words by the parent.
        maxLen: 1,
        onProgress: (percent) => emit({ type: "progress", index: chunk.index, fraction: percent / 100 }),
      });
      const result = await job.promise;
      emit({
        type: "chunk",
        index: chunk.index,
        language: typeof result.language === "string" ? result.language : null,
        segments: result.segments.map((s) => ({ text: s.text, t0: s.t0, t1: s.t1 })),
      });
    }
  } finally {
    fs.closeSync(fd);
  }
  await context.release();
}

main().then(
  () => undefined,
  (error) => fail("failed", error && error.message ? error.message : String(error)),
);
