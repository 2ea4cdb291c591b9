// Benchmarks the audio steps on a 3-hour recording: download (local HTTP server, through the outbound
// module) → probe → convert to mono 16 kHz Opus, in a CHILD process whose peak RSS is the figure that
// matters (target ≤ 300 MB), with the time of each stage and the peak RSS of ffprobe/ffmpeg.
//
// Run directly: `npx tsx scripts/bench/media.ts`; a bench runner can import benchMedia().
// The child is this same file: `node --import tsx scripts/bench/media.ts --child <url> <workdir>`.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

import { createOutbound } from "../../lib/http/outbound/index";
import { convertForAsr } from "../../lib/media/convert";
import { downloadAudioUrl } from "../../lib/media/download";
import { probeMedia } from "../../lib/media/probe";
import { withTempDir } from "../../lib/media/temp";
import { ffmpeg, serveFile, startLocalServer } from "../../test/media";

const HOURS = 3;
const SECONDS = HOURS * 3600;
/**
 * 16 kHz mono MP3 at 160 kbit/s (the most MPEG-2 layer III allows): quick to make, and at ~216 MB big
 * enough that buffering the file anywhere would show in the child's RSS.
 */
const BITRATE = "160k";
const RSS_TARGET_MB = 300;
const CHILD_FLAG = "--child";
const RESULT_MARK = "BENCH_MEDIA_RESULT ";
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

interface ChildResult {
  downloadSeconds: number;
  probeSeconds: number;
  convertSeconds: number;
  inputBytes: number;
  outputBytes: number;
  durationSeconds: number;
  progressCalls: number;
  vmHwmMb: number;
  maxRssMb: number;
  /** RSS once the modules are loaded, before the pipeline: what node + tsx cost anyway. */
  startRssMb: number;
}

/** VmHWM (peak resident set) of a process, in MB; null once it is gone. */
function vmHwmMb(pid: number | "self"): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The children of `pid` and their names, from /proc (Linux). */
function childrenOf(pid: number): Array<{ pid: number; name: string }> {
  const out: Array<{ pid: number; name: string }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may contain spaces and parentheses, so split after the last ")".
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === pid) out.push({ pid: Number(entry), name });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Child: the pipeline, measured from inside
// ---------------------------------------------------------------------------------------------------

async function runChild(url: string, workdir: string): Promise<void> {
  const startRssMb = process.memoryUsage().rss / 1024 / 1024;
  const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });
  const result = await withTempDir(
    "bench",
    async (dir, files) => {
      let t = performance.now();
      const src = await downloadAudioUrl(url, dir, { outbound, maxBytes: 2 * 1024 ** 3, idleTimeoutMs: 60_000 });
      const downloadSeconds = (performance.now() - t) / 1000;

      t = performance.now();
      const probe = await probeMedia(src.path);
      const probeSeconds = (performance.now() - t) / 1000;

      t = performance.now();
      let progressCalls = 0;
      const out = await convertForAsr(src.path, files.path("asr"), {
        durationSeconds: probe.durationSeconds,
        onProgress: () => progressCalls++,
      });
      const convertSeconds = (performance.now() - t) / 1000;
      return {
        downloadSeconds,
        probeSeconds,
        convertSeconds,
        inputBytes: src.bytes,
        outputBytes: out.bytes,
        durationSeconds: probe.durationSeconds,
        progressCalls,
      };
    },
    { root: workdir },
  );
  const full: ChildResult = {
    ...result,
    vmHwmMb: vmHwmMb("self") ?? Number.NaN,
    // maxRSS is in KiB on Linux.
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    startRssMb,
  };
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(full)}\n`);
}

// ---------------------------------------------------------------------------------------------------
// Parent: makes the file, serves it, runs and watches the child
// ---------------------------------------------------------------------------------------------------

function runChildProcess(
  url: string,
  workdir: string,
): Promise<{ result: ChildResult; toolPeaks: Record<string, number>; wallSeconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), CHILD_FLAG, url, workdir],
      {
        cwd: REPO_ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const toolPeaks: Record<string, number> = {};
    // VmHWM only grows, so the last reading of each tool before it exits is (close to) its peak.
    const sampler = setInterval(() => {
      if (child.pid === undefined) return;
      for (const c of childrenOf(child.pid)) {
        if (c.name !== "ffmpeg" && c.name !== "ffprobe") continue;
        const mb = vmHwmMb(c.pid);
        if (mb !== null) toolPeaks[c.name] = Math.max(toolPeaks[c.name] ?? 0, mb);
      }
    }, 100);
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (s: string) => (stdout += s));
    child.once("error", (err) => {
      clearInterval(sampler);
      reject(err);
    });
    child.once("close", (code) => {
      clearInterval(sampler);
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARK));
      if (code !== 0 || !line) {
        reject(new Error(`bench child exited with ${code}: ${stdout.slice(-2000)}`));
        return;
      }
      resolve({
        result: JSON.parse(line.slice(RESULT_MARK.length)) as ChildResult,
        toolPeaks,
        wallSeconds: (performance.now() - started) / 1000,
      });
    });
  });
}

/**
 * Peak RSS (MB) of the process running download → probe → convert on a 3-hour file, the seconds each
 * stage takes, and the peak RSS of ffprobe and ffmpeg. The file is generated (16 kHz mono MP3,
 * 160 kbit/s, ~216 MB) and served from a local HTTP server.
 */
export async function benchMedia(): Promise<Record<string, number>> {
  return withTempDir("bench-media", async (dir) => {
    const file = path.join(dir, "three-hours.mp3");
    let t = performance.now();
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      `anoisesrc=sample_rate=16000:amplitude=0.2:color=pink:duration=${SECONDS}`,
      "-ac",
      "1",
      "-c:a",
      "libmp3lame",
      "-b:a",
      BITRATE,
      file,
    ]);
    const generateSeconds = (performance.now() - t) / 1000;

    const server = await startLocalServer();
    server.route("/three-hours.mp3", serveFile(file, "audio/mpeg"));
    try {
      t = performance.now();
      const { result, toolPeaks, wallSeconds } = await runChildProcess(`${server.origin}/three-hours.mp3`, dir);
      const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
      return {
        "input: duration (h)": round(result.durationSeconds / 3600, 2),
        "input: size (MB)": round(statSync(file).size / 1e6),
        "output: size (MB, Opus 24 kbit/s mono 16 kHz)": round(result.outputBytes / 1e6),
        "child peak RSS, VmHWM (MB)": round(result.vmHwmMb),
        "child peak RSS, resourceUsage().maxRSS (MB)": round(result.maxRssMb),
        "child RSS before the pipeline, node + tsx (MB)": round(result.startRssMb),
        "RSS target (MB)": RSS_TARGET_MB,
        "ffprobe peak RSS (MB, sampled)": round(toolPeaks.ffprobe ?? Number.NaN),
        "ffmpeg peak RSS (MB, sampled)": round(toolPeaks.ffmpeg ?? Number.NaN),
        "download (s)": round(result.downloadSeconds, 2),
        "probe (s)": round(result.probeSeconds, 3),
        "convert (s)": round(result.convertSeconds, 1),
        "convert speed (x realtime)": round(result.durationSeconds / result.convertSeconds, 0),
        "progress callbacks": result.progressCalls,
        "child wall time incl. start-up (s)": round(wallSeconds, 1),
        "generate the 3 h file (s)": round(generateSeconds, 1),
      };
    } finally {
      await server.close();
    }
  });
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly && process.argv[2] === CHILD_FLAG) {
  await runChild(process.argv[3] as string, process.argv[4] as string);
} else if (invokedDirectly) {
  const figures = await benchMedia();
  console.log(`Audio steps on a ${HOURS}-hour file (download → probe → convert in a child process)`);
  for (const [label, value] of Object.entries(figures)) console.log(`${label.padEnd(48)} ${value}`);
  const peak = figures["child peak RSS, VmHWM (MB)"] ?? Number.NaN;
  console.log(
    peak <= RSS_TARGET_MB
      ? `OK: peak RSS ${peak} MB ≤ ${RSS_TARGET_MB} MB`
      : `OVER TARGET: peak RSS ${peak} MB > ${RSS_TARGET_MB} MB`,
  );
}
