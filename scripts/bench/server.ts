// Start-up time of the built app on its embedded defaults, and
// GET /v1/me/api-key (API key) against GET /health, with autocannon (10 connections, alternating rounds:
// againstHealth).
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createMigratedTestDatabase } from "../../test/pg";

export interface RunningApp {
  baseUrl: string;
  pid: number;
  startupSeconds: number;
  /** CPU time (user and system) the app's process had used by then; NaN where /proc is not there. */
  startupCpuSeconds: number;
  stop(): Promise<void>;
}

/**
 * Flags for the app's node, e.g. `BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` to profile a suite's
 * server (node refuses --cpu-prof in NODE_OPTIONS).
 */
const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];

/**
 * `npm start` (scripts/start.mjs `start`: the app already built, in `cwd`) with a fresh DATA_DIR (or
 * `extraEnv.DATA_DIR`, kept afterwards); resolves at the first 200 from /health with the database up. Its
 * output is discarded, or appended to `logFile`.
 */
export async function startApp(
  port: number,
  extraEnv: Record<string, string> = {},
  cwd = process.cwd(),
  logFile?: string,
): Promise<RunningApp> {
  const ownDataDir = extraEnv.DATA_DIR === undefined;
  const dataDir = extraEnv.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-"));
  let output: number | undefined;
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeFlags, "scripts/start.mjs", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      // Throughput runs go through the rate limiter (every request is counted) with limits scaled so far up
      // that none is refused; bench/rate-limits.ts compares with the limiter off.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: dataDir,
        RATE_LIMIT_MULTIPLIER: "1000000",
        ...extraEnv,
      } as unknown as NodeJS.ProcessEnv,
      stdio: logFile ? ["ignore", (output = openSync(logFile, "a")), output] : "ignore",
      cwd,
    },
  );
  if (output !== undefined) closeSync(output);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      // /health answers 200 "degraded" when the database is not up: a start counts once it is.
      const health = await fetch(`${baseUrl}/health`);
      if (health.status === 200 && ((await health.json()) as { status?: string }).status === "ok") break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startupSeconds = (performance.now() - started) / 1000;
  const startupCpuSeconds = cpuSeconds(child.pid!);
  await backgroundStartDone(baseUrl);
  return {
    baseUrl,
    pid: child.pid!,
    startupSeconds,
    startupCpuSeconds,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Seconds of CPU (user and system) a process has used, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks, counted after the command name's closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/**
 * The work a start postpones until its first answer (the job runner, the yt-dlp check: instrumentation.ts)
 * has run once /health no longer says yt-dlp is "checking". Throughput is measured after it, so that a
 * Python start on the other core does not slow the first figure of a run (the /health every ratio divides by).
 */
async function backgroundStartDone(baseUrl: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const health = (await (await fetch(`${baseUrl}/health`)).json()) as { ytdlp?: string };
    if (health.ytdlp !== "checking") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs in with the development login: the session's cookies as `name=value` pairs. */
export async function devLoginCookies(baseUrl: string, email: string): Promise<string[]> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const login = await fetch(`${baseUrl}/api/auth/callback/dev-login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, callbackUrl: "/dashboard" }),
  });
  return [...cookies, ...login.headers.getSetCookie().map((c) => c.split(";")[0])];
}

/** Signs in with the development login and returns a fresh API key. */
export async function createApiKey(baseUrl: string, email = `bench-${Date.now()}@example.test`): Promise<string> {
  const session = (await devLoginCookies(baseUrl, email)).join("; ");
  const ensure = await fetch(`${baseUrl}/v1/me/api-key/ensure`, {
    method: "POST",
    headers: { cookie: session, origin: baseUrl },
  });
  const state = (await ensure.json()) as { key: string | null };
  if (!state.key) throw new Error(`could not create an API key (${ensure.status})`);
  return state.key;
}

export async function requestsPerSecond(
  url: string,
  headers: Record<string, string> = {},
  seconds = 10,
  request: { method?: "GET" | "POST"; body?: string } = {},
): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers, ...request });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Requests/s of `measure` (given the seconds to run) against /health on the same server, taken in `rounds`
 * alternating rounds, and the median of the per-round ratios. One 10 s window of each, one after the other,
 * moved ratios by ±0.3 on these machines (a neighbour's load or a CPU's clock changes between the windows);
 * alternating short rounds puts both sides under the same drift.
 */
export async function againstHealth(
  baseUrl: string,
  measure: (seconds: number) => Promise<number>,
  rounds = 3,
  seconds = 5,
): Promise<{ health: number; rps: number; ratio: number }> {
  const health: number[] = [];
  const rps: number[] = [];
  for (let round = 0; round < rounds; round++) {
    health.push(await requestsPerSecond(`${baseUrl}/health`, {}, seconds));
    rps.push(await measure(seconds));
  }
  return { health: median(health), rps: median(rps), ratio: median(rps.map((value, i) => value / health[i])) };
}

/**
 * Requests/s and 99th-percentile latency (ms) under `connections` concurrent readers; `timeouts`: requests
 * not answered within 10 s (a figure, not a failure: a loaded machine is what this measures).
 */
export async function underLoad(
  url: string,
  connections: number,
  seconds = 10,
): Promise<{ rps: number; p99: number; timeouts: number }> {
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx`);
  return { rps: result.requests.average, p99: result.latency.p99, timeouts: result.timeouts };
}

async function throughput(app: RunningApp): Promise<{ health: number; apiKey: number; ratio: number }> {
  const key = await createApiKey(app.baseUrl);
  const headers = { authorization: `Bearer ${key}` };
  await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
  await requestsPerSecond(`${app.baseUrl}/v1/me/api-key`, headers, 2);
  const { health, rps, ratio } = await againstHealth(app.baseUrl, (seconds) =>
    requestsPerSecond(`${app.baseUrl}/v1/me/api-key`, headers, seconds),
  );
  return { health, apiKey: rps, ratio };
}

/** A migrated PostgreSQL database for the run, dropped afterwards. */
async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
  const database = await createMigratedTestDatabase();
  try {
    return await run(database.url);
  } finally {
    await database.drop();
  }
}

const median3 = (values: number[]) => [...values].sort((a, b) => a - b)[1];

/** The start-up runs' first port (each start takes the next one): BENCH_STARTUP_PORT, for a shared machine. */
const STARTUP_PORT = Number(process.env.BENCH_STARTUP_PORT ?? 3140);

interface Startups {
  fresh: number;
  freshCpu: number;
  restart: number;
  restartCpu: number;
  postgres: number;
}

/**
 * `npm start` to the first /health 200 on a fresh data folder (the embedded database restored from the build's
 * snapshot), on the data folder of an earlier run (what a restart is), and on PostgreSQL (the app's own start:
 * Next.js and the modules, no embedded database), each the median of 3; with the CPU seconds the app had used by
 * then, which a busy neighbour on the machine moves far less than the wall-clock time.
 */
export async function startups(cwd = process.cwd()): Promise<Startups> {
  let port = STARTUP_PORT;
  const fresh: RunningApp[] = [];
  for (let run = 0; run < 3; run++) {
    const app = await startApp(port++, {}, cwd);
    fresh.push(app);
    await app.stop();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-restart-"));
  const restart: RunningApp[] = [];
  try {
    await (await startApp(port++, { DATA_DIR: dataDir }, cwd)).stop();
    for (let run = 0; run < 3; run++) {
      const app = await startApp(port++, { DATA_DIR: dataDir }, cwd);
      restart.push(app);
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const postgres = await withPostgres(async (url) => {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const app = await startApp(
        port++,
        { DATABASE_URL: url, AUTH_SECRET: "bench-secret-bench-secret-bench-secret" },
        cwd,
      );
      times.push(app.startupSeconds);
      await app.stop();
    }
    return times;
  });
  return {
    fresh: median3(fresh.map((app) => app.startupSeconds)),
    freshCpu: median3(fresh.map((app) => app.startupCpuSeconds)),
    restart: median3(restart.map((app) => app.startupSeconds)),
    restartCpu: median3(restart.map((app) => app.startupCpuSeconds)),
    postgres: median3(postgres),
  };
}

function startupFigures(started: Startups): Record<string, number> {
  return {
    "start on a fresh data folder to first /health 200, s (goal ≤ 2.5)": started.fresh,
    "  fresh start: the app's CPU seconds by then": started.freshCpu,
    "restart on existing embedded data to first /health 200, s (goal ≤ 1)": started.restart,
    "  restart: the app's CPU seconds by then": started.restartCpu,
    "start on PostgreSQL to first /health 200, s": started.postgres,
  };
}

/** `npm run bench -- startup`: the start-up figures alone (the server suite has them too). */
export async function benchStartup(): Promise<Record<string, number>> {
  return startupFigures(await startups());
}

export async function benchServer(): Promise<Record<string, number>> {
  const started = await startups();
  const embeddedApp = await startApp(3150);
  const embedded = await throughput(embeddedApp).finally(() => embeddedApp.stop());
  const postgres = await withPostgres(async (url) => {
    const app = await startApp(3151, {
      DATABASE_URL: url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      AUTH_DEV_LOGIN: "true",
    });
    return throughput(app).finally(() => app.stop());
  });
  return {
    ...startupFigures(started),
    "PGlite: GET /health req/s": embedded.health,
    "PGlite: GET /v1/me/api-key req/s": embedded.apiKey,
    "PGlite: api-key / health ratio (goal ≥ 0.7)": embedded.ratio,
    "PostgreSQL: GET /health req/s": postgres.health,
    "PostgreSQL: GET /v1/me/api-key req/s": postgres.apiKey,
    "PostgreSQL: api-key / health ratio (goal ≥ 0.8)": postgres.ratio,
  };
}
