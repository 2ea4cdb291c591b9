// `npm test`: every suite, in two lanes side by side, and a breakdown table at the end.
//
//   the browser's lane     build, its snapshot and models, e2e (in shards), server: the build's output, against one
//                          set of apps (test/apps.ts) started once before the first and stopped after the last; then
//                          faults and the browser extension (the build's output, apps of their own)
//   the background lane    integration, typecheck, format, lint, cycles, unit: under `nice`
//
// e2e and the server suite are a browser's and an HTTP client's round trips: they wait on the apps more than they
// compute, and left alone on two cores they use less than one. The background lane fills the rest: its steps run
// at a lower priority, so the round trips of the browser's lane (and the apps and Chromium they wait on) still get
// a core when they need one, and its CPU-bound suites take what is left. The browser's lane runs TEST_JOBS steps at
// a time (default 3; CI sets 1), the background lane TEST_BACKGROUND_JOBS (default 2), each in the order below, a
// step as soon as what it needs has passed. The table gives each
// step's wall and CPU seconds and the steps it ran beside. Each step's output is kept in
// test-results/steps/<step>.log and printed whole when it ends (so the steps' lines do not interleave). A failed
// step fails the run; the steps that need it are not run.
//
//   tsx scripts/test-all.ts [step ...]     only these steps, in the same order (e.g. `build e2e`; `e2e` alone
//                                          runs against the build that is there)
//   TEST_JOBS=1 E2E_SHARDS=1 npm test      the browser's lane one step at a time
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { SUITE_APPS, TEST_APPS_UP } from "../test/apps";
import { referenceWorkMs } from "./machine-speed";

interface Step {
  name: string;
  command: string;
  /** Seconds this step may take on a 2-core machine (docs/testing.md); over it, the table marks it. */
  budget: number;
  needs?: string[];
  /** Runs against test/apps.ts's apps, which this run starts once for every such step. */
  apps?: boolean;
  env?: Record<string, string>;
  /** In the background lane: run under `nice`, beside the browser's lane. */
  background?: boolean;
  /**
   * A file inside the checkout where the step's tool keeps what it found (by content, never by time): restored from
   * the user's cache folder before the step and kept there after it passes, so that `npm ci` (which empties
   * node_modules) does not make the next run in this checkout check everything again.
   */
  cache?: string;
}

const jobs = Math.max(1, Number(process.env.TEST_JOBS || 3));
const backgroundJobs = Math.max(1, Number(process.env.TEST_BACKGROUND_JOBS || 2));
// The background lane's niceness: its steps get about a tenth of a core that the browser's lane wants too.
const BACKGROUND_NICENESS = 10;
const shards = Math.max(1, Number(process.env.E2E_SHARDS || 1));
const e2ePort = Number(process.env.E2E_PORT || 3123);
const logDir = path.resolve("test-results", "steps");
const runId = Date.now().toString(36);
// Where the steps' caches are kept (`cache` above), one folder per checkout: what the tools keep names the checkout's
// folder (ESLint by absolute paths), so another clone would check everything again anyway.
const stepCacheDir = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
  "verbatim",
  "steps",
  createHash("sha256").update(process.cwd()).digest("hex").slice(0, 16),
);
const STEP_CACHE = "node_modules/.cache/verbatim";
// Every step starts many Node processes and threads (a vitest worker per file, job workers, parse threads, the
// apps) that load the same modules: with Node's compile cache the first one compiles a module and the others read
// its bytecode (keyed by the source's hash, so a stale entry is never used).
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "verbatim-node-compile-cache");
// Every app the suites start would distil the default embedder's 50,000 words on its first start (a minute of a
// core each): the apps search by meaning with the word vectors alone. The distillation has its own tests
// (lib/embeddings/distil-words.test.ts, in a worker thread), and the judged guard searches with the distilled vectors of its words (made once a run).
process.env.SEARCH_DISTILLED_WORDS ??= "0";
// Likewise the second stage of search by meaning: every app would read all its passages whole with USE lite in the
// background (a thread at half a core each). It has its own test (lib/search/second-stage.int.test.ts).
process.env.SEARCH_SECOND_STAGE ??= "off";

/** The e2e run split by spec file across `shards` Playwright runs, each with its own apps (ports 20 apart). */
function e2eShards(): Step[] {
  // Each run has an output folder of its own: Playwright empties its folder at start, and test-results/steps (the
  // steps' logs) must survive it.
  if (shards === 1)
    return [
      {
        name: "e2e",
        command: "playwright test --output=test-results/e2e",
        budget: E2E_BUDGET,
        needs: ["build", "snapshot", "models", "chromium"],
        apps: true,
      },
    ];
  return Array.from({ length: shards }, (_, i) => ({
    name: `e2e ${i + 1}/${shards}`,
    command: `playwright test --shard=${i + 1}/${shards} --output=test-results/e2e-${i + 1}`,
    budget: E2E_BUDGET,
    needs: ["build", "snapshot", "models", "chromium"],
    env: { E2E_PORT: String(e2ePort + 20 * i), E2E_RUN_ID: `${runId}-${i + 1}` },
  }));
}

// Each step's budget in seconds on a 2-core machine, as docs/testing.md lists them.
const E2E_BUDGET = 7 * 60;
const STEPS: Step[] = [
  // The typecheck step runs tsc itself; the build need not do it again.
  { name: "build", command: "next build", budget: 90, env: { VERBATIM_BUILD_SKIP_TYPECHECK: "1" } },
  // What `npm run build`'s postbuild does: the embedded database every app of the suites below starts from, so each
  // restores it as a user's first start does instead of running every migration again.
  { name: "snapshot", command: "tsx scripts/db-snapshot.ts", budget: 30, needs: ["build"] },
  // The rest of what that postbuild does for the apps: the default embedder's word vectors converted once into the
  // build, which each app's fresh data folder copies on its first start instead of converting them again (a worker
  // thread streaming 307 MB of JSON, for every app, fault and extension start).
  { name: "models", command: "tsx scripts/models-build.ts", budget: 30, needs: ["build"] },
  { name: "chromium", command: "tsx test/chromium.ts", budget: 30 },
  ...e2eShards(),
  // Right after e2e, so the apps they share are stopped before the other steps run.
  shards === 1
    ? {
        name: "server",
        command: "vitest run --config vitest.server.config.ts",
        budget: 2 * 60,
        needs: ["build", "snapshot", "models"],
        apps: true,
      }
    : {
        // e2e shards each start their own apps (ports 20 apart); the server suite's go above them.
        name: "server",
        command: "vitest run --config vitest.server.config.ts",
        budget: 2 * 60,
        needs: ["build", "snapshot", "models"],
        env: { E2E_PORT: String(e2ePort + 20 * shards), E2E_RUN_ID: `${runId}-server` },
      },
  // Last in the browser's lane, at its priority: the fault suite kills, restarts and times the apps and PostgreSQL it
  // starts, and under `nice` beside integration those apps got a tenth of a core (one kill during 100 jobs ran past
  // eight minutes, where alone it takes one): what it timed was the starvation, not the recovery.
  {
    name: "faults",
    command: "vitest run --config vitest.faults.config.ts",
    budget: 2 * 60,
    needs: ["build", "snapshot", "models"],
  },
  // The browser extension loaded into full Chromium (e2e-extension/browser.ts), against an app and a YouTube fake of
  // its own: a sign-in, a transcript beside the video, at two side-panel widths.
  {
    name: "extension",
    command: "playwright test -c playwright.extension.config.ts --output=test-results/extension",
    budget: 90,
    needs: ["build", "snapshot", "models"],
  },
  // The background lane. Integration first: it is the longest, and its workers (which mostly wait on PostgreSQL and
  // child processes) fill what the browser's lane leaves. Beside it, one after another: format and lint while the
  // build runs, typecheck once the build has written the route types it reads (.next/types, which a build deletes
  // and writes again), unit last, since its two workers can use both cores at the end.
  {
    name: "integration",
    command: "vitest run --config vitest.integration.config.ts",
    budget: 4 * 60,
    background: true,
  },
  // TypeScript's native compiler (7, under the name typescript-go): the same tsconfig checked in a few seconds where
  // the JavaScript one took a minute of CPU. Next.js and typescript-eslint keep TypeScript 5's API.
  {
    name: "typecheck",
    command: "node node_modules/typescript-go/bin/tsc --noEmit",
    budget: 60,
    needs: ["build"],
    background: true,
  },
  {
    name: "format",
    command: "oxfmt --check **/*.{ts,tsx,mjs,cjs}",
    budget: 30,
    background: true,
  },
  // ESLint's cache by content: a file is linted again when it changed (a cycle an unchanged file joins is reported
  // at the changed file that closes it; a broken import is tsc's too).
  {
    name: "lint",
    command: `eslint . --cache --cache-strategy content --cache-location ${STEP_CACHE}/eslint.json`,
    budget: 60,
    background: true,
    cache: `${STEP_CACHE}/eslint.json`,
  },
  // No file imports itself back (.oxlintrc.json: oxlint's import/no-cycle, the one rule ESLint does not run).
  { name: "cycles", command: "oxlint --tsconfig tsconfig.json --deny-warnings", budget: 10, background: true },
  { name: "unit", command: "vitest run", budget: 90, background: true },
];

interface Result {
  step: Step;
  status: "passed" | "failed" | "not run";
  seconds: number;
  /** CPU seconds of the step's own processes (user + system). */
  cpu?: number;
  /** When it started and ended (ms since the epoch), for the steps it ran beside. */
  from?: number;
  to?: number;
}

const FAILED_TAIL_LINES = 80;

const fileName = (step: Step | "apps") => (step === "apps" ? "apps" : step.name.replace(/\W+/g, "-"));

function stepLog(step: Step): string {
  return path.join(logDir, `${fileName(step)}.log`);
}

function cpuFile(step: Step | "apps"): string {
  return path.join(logDir, `${fileName(step)}.cpu`);
}

// Runs "$@" and then writes bash's `times` to $0: its second line is the user and system time of the processes
// the shell waited for, the command and all it started and waited for.
const CPU_WRAPPER = '"$@"; code=$?; times > "$0"; exit $code';
const APPS_WRAPPER = `trap 'kill -TERM $pid' TERM; "$@" & pid=$!; wait $pid; wait $pid; code=$?; times > "$0"; exit $code`;

/** The CPU seconds bash's `times` wrote to `file` for its children (user + system), if it wrote them. */
function cpuSeconds(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const children = text.trim().split("\n")[1] ?? "";
  const parts = [...children.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) return undefined;
  return parts.reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0);
}

// The machine's PostgreSQL and Redis run before the run starts, so no step's `times` counts them: what their
// processes used meanwhile is read from /proc, each process's own ticks and those of the children a server reaped
// (the backends that ended), at the start and at the end.
const SERVICES = new Set(["postgres", "redis-server"]);
const TICKS_PER_SECOND = 100; // USER_HZ, the same on every Linux

function serviceCpuSeconds(): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    if (!SERVICES.has(stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")))) continue;
    // After "pid (comm) ": state, ppid, … utime, stime, cutime, cstime are the 14th to 17th fields of the line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * e2e's apps (`tsx test/apps.ts e2e`: the server suite uses them too, and starts the two only it uses itself), up
 * from the first step that needs them until stop(); its output goes to test-results/steps/apps.log.
 */
class SharedApps {
  private child: ChildProcess | null = null;
  private starting: Promise<void> | null = null;
  readonly log = path.join(logDir, "apps.log");

  start(): Promise<void> {
    this.starting ??= new Promise<void>((resolve, reject) => {
      const log = createWriteStream(this.log);
      // node --import tsx, so SIGTERM reaches the code that stops the apps; under a bash that passes SIGTERM on and
      // then writes the apps' CPU seconds.
      const child = spawn(
        "bash",
        ["-c", APPS_WRAPPER, cpuFile("apps"), process.execPath, "--import", "tsx", "test/apps.ts", "e2e"],
        {
          env: { ...process.env, E2E_RUN_ID: runId },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      this.child = child;
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        log.write(chunk);
        output += chunk.toString();
        if (/^ready$/m.test(output)) resolve();
      });
      child.stderr.pipe(log);
      child.once("exit", (code) => reject(new Error(`test/apps.ts exited (${code}) before its apps were ready`)));
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

/** A step that needs the shared apps: they are started first; if they do not come up, the step fails. */
async function runStepWithApps(step: Step, apps: SharedApps): Promise<Result> {
  const started = Date.now();
  try {
    await apps.start();
  } catch (error) {
    const message = `${String(error)}\n${readFileSync(apps.log, "utf8").slice(-8000)}`;
    writeFileSync(stepLog(step), message);
    console.log(`\n==> ${step.name} failed: ${message}`);
    return { step, status: "failed", seconds: (Date.now() - started) / 1000, from: started, to: Date.now() };
  }
  return runStep({ ...step, env: { ...step.env, [TEST_APPS_UP]: SUITE_APPS.e2e.join(","), E2E_RUN_ID: runId } });
}

/** The step's cache, restored from the user's cache folder (where a run on this machine left it). */
function restoreCache(step: Step): void {
  if (!step.cache) return;
  const kept = path.join(stepCacheDir, fileName(step), path.basename(step.cache));
  mkdirSync(path.dirname(step.cache), { recursive: true });
  if (existsSync(kept)) writeFileSync(step.cache, readFileSync(kept));
}

function keepCache(step: Step): void {
  if (!step.cache || !existsSync(step.cache)) return;
  const kept = path.join(stepCacheDir, fileName(step), path.basename(step.cache));
  mkdirSync(path.dirname(kept), { recursive: true });
  // Renamed into place: a run killed while writing leaves no half of a cache for the next.
  writeFileSync(`${kept}.${process.pid}`, readFileSync(step.cache));
  renameSync(`${kept}.${process.pid}`, kept);
}

function runStep(step: Step): Promise<Result> {
  const started = Date.now();
  restoreCache(step);
  const logFile = stepLog(step);
  const log = createWriteStream(logFile);
  console.log(`==> ${step.name}: ${step.command}`);
  return new Promise((resolve) => {
    // npx resolves the project's binaries as `npm run` would; bash's `times` then writes the CPU seconds of the
    // step's processes (those it waited for: not a PostgreSQL or Redis that was already running).
    const command = ["bash", "-c", CPU_WRAPPER, cpuFile(step), "npx", "--no-install", ...step.command.split(" ")];
    const [file, ...args] = step.background ? ["nice", "-n", String(BACKGROUND_NICENESS), ...command] : command;
    const child = spawn(file, args, {
      env: { ...process.env, ...step.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (error) => log.write(`\n${String(error)}\n`));
    child.on("close", (code) => {
      log.end(() => {
        const seconds = (Date.now() - started) / 1000;
        const status = code === 0 ? "passed" : "failed";
        if (status === "passed") keepCache(step);
        console.log(
          `\n==> ${step.name} ${status} in ${seconds.toFixed(0)} s (${path.relative(process.cwd(), logFile)})\n${readFileSync(logFile, "utf8")}`,
        );
        resolve({ step, status, seconds, cpu: cpuSeconds(cpuFile(step)), from: started, to: Date.now() });
      });
    });
  });
}

/** The steps that ran at the same time as `r`, at least part of it. */
function besideOf(r: Result, results: Result[]): string {
  if (r.from === undefined || r.to === undefined) return "";
  return results
    .filter((o) => o !== r && o.from !== undefined && o.to !== undefined && o.from < r.to! && r.from! < o.to)
    .map((o) => o.step.name)
    .join(", ");
}

/** The steps' times beside their budgets, and what each ran beside; a step over its budget is marked, not failed. */
function table(
  results: Result[],
  wallSeconds: number,
  appsCpu: number | undefined,
  servicesCpu: number | undefined,
): string {
  const cpu = (seconds: number | undefined) => (seconds === undefined ? "" : seconds.toFixed(0));
  const rows = [
    ["step", "result", "seconds", "cpu s", "budget", "", "ran beside"],
    ...results.map((r) => [
      r.step.name,
      r.status,
      r.status === "not run" ? "" : r.seconds.toFixed(0),
      cpu(r.cpu),
      String(r.step.budget),
      r.status !== "not run" && r.seconds > r.step.budget ? "over budget" : "",
      besideOf(r, results),
    ]),
    ...(appsCpu === undefined ? [] : [["(shared apps)", "", "", cpu(appsCpu), "", "", "the steps that use them"]]),
    ...(servicesCpu === undefined
      ? []
      : [["(PostgreSQL, Redis)", "", "", cpu(servicesCpu), "", "", "the machine's own, for every step"]]),
    [
      "(wall clock)",
      "",
      wallSeconds.toFixed(0),
      cpu(results.reduce((sum, r) => sum + (r.cpu ?? 0), (appsCpu ?? 0) + (servicesCpu ?? 0))),
      "",
      "",
      "",
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const numeric = new Set([2, 3, 4]);
  return rows
    .map((row) =>
      row
        .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const chosen =
    only.length > 0
      ? STEPS.filter((s) => only.some((name) => s.name === name || s.name.startsWith(`${name} `)))
      : STEPS;
  const steps = chosen.map((s) => ({
    ...s,
    needs: (s.needs ?? []).filter((name) => chosen.some((c) => c.name === name)),
  }));
  if (only.length > 0 && steps.length === 0)
    throw new Error(`No step named ${only.join(", ")}: ${STEPS.map((s) => s.name).join(", ")}`);
  rmSync("test-results", { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });

  // Before any step starts, so that nothing of the run's own slows it.
  const machineMs = referenceWorkMs();
  const started = Date.now();
  const servicesAtStart = serviceCpuSeconds();
  const results = new Map<string, Result>();
  const running = new Map<string, Promise<Result>>();
  const waiting = [...steps];
  const failedOrSkipped = (name: string) => ["failed", "not run"].includes(results.get(name)?.status ?? "");
  const apps = new SharedApps();
  const appSteps = steps.filter((step) => step.apps);

  const runningIn = (background: boolean) =>
    [...running.keys()].filter((name) => Boolean(steps.find((s) => s.name === name)?.background) === background).length;
  while (waiting.length > 0 || running.size > 0) {
    for (const step of [...waiting]) {
      if (runningIn(Boolean(step.background)) >= (step.background ? backgroundJobs : jobs)) continue;
      const needs = step.needs ?? [];
      if (needs.some(failedOrSkipped)) {
        waiting.splice(waiting.indexOf(step), 1);
        results.set(step.name, { step, status: "not run", seconds: 0 });
        continue;
      }
      if (!needs.every((name) => results.get(name)?.status === "passed")) continue;
      waiting.splice(waiting.indexOf(step), 1);
      running.set(step.name, step.apps ? runStepWithApps(step, apps) : runStep(step));
    }
    if (running.size === 0) break;
    const done = await Promise.race(running.values());
    running.delete(done.step.name);
    results.set(done.step.name, done);
    if (appSteps.every((step) => results.has(step.name))) await apps.stop();
  }
  await apps.stop();

  const servicesAtEnd = serviceCpuSeconds();
  const servicesCpu =
    servicesAtStart === undefined || servicesAtEnd === undefined ? undefined : servicesAtEnd - servicesAtStart;
  const ordered = steps.map((s) => results.get(s.name)!);
  const failed = ordered.filter((r) => r.status !== "passed");
  console.log(
    `\nnpm test: ${ordered.length - failed.length} of ${ordered.length} steps passed (${jobs} and ${backgroundJobs} at a time in the two lanes); this machine did the reference work (scripts/machine-speed.ts) in ${machineMs} ms on one core\n${table(ordered, (Date.now() - started) / 1000, cpuSeconds(cpuFile("apps")), servicesCpu)}`,
  );
  if (failed.length > 0) console.log(`\nFailed or not run: ${failed.map((r) => r.step.name).join(", ")}`);
  // A failed step's log was printed when it ended, often long before the table: its end again, last, so that a
  // CI view that keeps only the tail of the output still shows what failed.
  for (const { step, status } of failed) {
    if (status !== "failed") continue;
    const lines = readFileSync(stepLog(step), "utf8").trimEnd().split("\n");
    console.log(`\n==> the last ${Math.min(lines.length, FAILED_TAIL_LINES)} lines of ${step.name}'s log\n`);
    console.log(lines.slice(-FAILED_TAIL_LINES).join("\n"));
  }
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main();
