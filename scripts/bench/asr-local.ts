// Figures for the local recogniser, with the model at ASR_LOCAL_MODEL_PATH, else a tiny
// random-weight model generated here (test/whisper-model.ts: 1 layer, width 64; it recognises nothing, so
// its figures measure the plumbing and whisper.cpp's per-window cost at that size, not a real model's):
// - real-time factor (202 → done through the built app's job) and the recogniser child's peak RSS for
//   10 minutes of speech (espeak-ng, looped);
// - GET /health p50/p99 on that app, idle and while the transcription runs in its child process.
// A random model never says end-of-text: every 30 s window decodes the most tokens whisper.cpp allows and
// runs every temperature fallback, so its real-time factor is far worse than a trained model's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, createReadStream } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { localRuntime } from "../../lib/asr/local-runtime";
import { findExecutable } from "../../lib/process/media-tools";
import { createMigratedTestDatabase } from "../../test/pg";
import { speechWav } from "../../test/speech";
import { writeTinyWhisperModel } from "../../test/whisper-model";
import { createApiKey, startApp } from "./server";

const TEN_MINUTES = 600;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Pids of recogniser children whose command line names `model`. */
function childPids(model: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes("whisper-child.cjs") && cmdline.includes(model)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function peakRssMb(pid: number): number | null {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return null;
  }
}

async function healthLatencies(baseUrl: string, until: () => boolean, max: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < max && !until()) {
    const started = performance.now();
    await (await fetch(`${baseUrl}/health`)).text();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times.sort((a, b) => a - b);
}

export async function benchAsrLocal(): Promise<Record<string, number>> {
  const runtime = localRuntime();
  if (!runtime.available) throw new Error(runtime.reason);
  const dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-asr-local-"));
  const ffmpeg = findExecutable("ffmpeg") ?? "ffmpeg";
  try {
    const model = process.env.ASR_LOCAL_MODEL_PATH ?? path.join(dir, "ggml-tiny-random.bin");
    if (!process.env.ASR_LOCAL_MODEL_PATH) await writeTinyWhisperModel(model);
    const sentence = path.join(dir, "sentence.wav");
    await speechWav(
      sentence,
      "Bread rises because yeast makes gas. The gluten traps it, and the dough grows slowly in the warm kitchen.",
    );
    const audio = path.join(dir, "ten-minutes.wav");
    execFileSync(ffmpeg, [
      "-v",
      "error",
      "-stream_loop",
      "-1",
      "-i",
      sentence,
      "-t",
      String(TEN_MINUTES),
      "-ac",
      "1",
      "-ar",
      "16000",
      audio,
    ]);

    // The built app: /health while idle, then while the 10 minutes are recognised in a job; meanwhile the
    // recogniser child (found by its command line, which names this model file) is watched for its peak RSS.
    const files = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "audio/wav", "content-length": statSync(audio).size });
      createReadStream(audio).pipe(res);
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    const audioUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/ten-minutes.wav`;
    const database = await createMigratedTestDatabase();
    const app = await startApp(3262, {
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      AUTH_DEV_LOGIN: "true",
      ASR_PROVIDER: "local",
      ASR_LOCAL_MODEL_PATH: model,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    });
    try {
      const auth = { authorization: `Bearer ${await createApiKey(app.baseUrl, "bench-local@example.test")}` };
      await healthLatencies(app.baseUrl, () => false, 20); // warm-up
      const idle = await healthLatencies(app.baseUrl, () => false, 300);
      const res = await fetch(`${app.baseUrl}/v1/transcript`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ audio: audioUrl }),
      });
      const jobId = ((await res.json()) as { job_id: string }).job_id;
      const started = performance.now();
      let childPeak = 0;
      const poll = setInterval(() => {
        for (const pid of childPids(model)) childPeak = Math.max(childPeak, peakRssMb(pid) ?? 0);
      }, 200);
      let status = "queued";
      const watcher = (async () => {
        while (status !== "done" && status !== "error") {
          status = (
            (await (await fetch(`${app.baseUrl}/v1/jobs/${jobId}`, { headers: auth })).json()) as { status: string }
          ).status;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      const busy = await healthLatencies(app.baseUrl, () => status === "done" || status === "error", 100_000);
      await watcher;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(poll);
      return {
        [`model: ${process.env.ASR_LOCAL_MODEL_PATH ? "ASR_LOCAL_MODEL_PATH" : "generated tiny random-weight (1 layer, width 64)"} (1 = real)`]:
          process.env.ASR_LOCAL_MODEL_PATH ? 1 : 0,
        "10 min of audio: seconds from 202 to done": seconds,
        [`10 min of audio: real-time factor (${os.availableParallelism()} cores)`]: seconds / TEN_MINUTES,
        "10 min of audio: recogniser child peak RSS, MB": childPeak,
        "GET /health p50 idle, ms": percentile(idle, 50),
        "GET /health p99 idle, ms": percentile(idle, 99),
        "GET /health p50 while recognising, ms": percentile(busy, 50),
        "GET /health p99 while recognising, ms": percentile(busy, 99),
        "GET /health requests while recognising": busy.length,
        "job done (1 = yes)": status === "done" ? 1 : 0,
      };
    } finally {
      await app.stop();
      await database.drop();
      await new Promise((resolve) => files.close(resolve));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
