// `npm test`: every suite, the independent ones side by side, and a breakdown table at the end.
//
//   lint, format, typecheck, unit,       need nothing but the tree
//   integration
//   build                                `next build`, once
//   e2e (in shards), server, faults      the build's output; e2e and server against one set of apps
//                                        (test/apps.ts), started once before the first and stopped after the last
//
// Steps start in the order below as soon as what they need has passed and fewer than TEST_JOBS (default 3)
// run: on two cores the build and the e2e shards are the long poles, so they go first and the short steps
// fill the gaps. e2e (one browser's round trips) and integration (PostgreSQL, child processes, fakes) mostly
// wait: while one of them runs, one of the steps that only read the tree (typecheck, unit, lint, format; unit's
// timeouts are guards of 30 s) runs beside it even past TEST_JOBS, so a serial run (TEST_JOBS=1) is serial but
// for those; the table names what each step ran beside. Each step's output is kept in
// test-results/steps/<step>.log and printed whole when it ends (so the steps' lines do not interleave). A failed
// step fails the run; the steps that need it are not run.
//
//   tsx scripts/test-all.ts [step ...]     only these steps, in the same order (e.g. `build e2e`; `e2e` alone
//                                          runs against the build that is there)
//   TEST_JOBS=1 E2E_SHARDS=1 npm test      one step at a time, but typecheck, unit, lint and format beside e2e
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TEST_APPS_UP } from "../test/apps";

interface Step {
  name: string;
  command: string;
  /** Seconds this step may take on a 2-core machine (docs/testing.md); over it, the table marks it. */
  budget: number;
  needs?: string[];
  /** Runs against test/apps.ts's apps, which this run starts once for every such step. */
  apps?: boolean;
  env?: Record<string, string>;
  /**
   * Mostly waits (a browser's round trips; PostgreSQL, child processes, fakes): while it runs, one `beside` step
   * may run next to it even when TEST_JOBS steps already run.
   */
  waits?: boolean;
  /** May run next to a `waits` step beyond TEST_JOBS (one at a time). */
  beside?: boolean;
}

const jobs = Math.max(1, Number(process.env.TEST_JOBS || 3));
const shards = Math.max(1, Number(process.env.E2E_SHARDS || 1));
const e2ePort = Number(process.env.E2E_PORT || 3123);
const logDir = path.resolve("test-results", "steps");
const runId = Date.now().toString(36);

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
        needs: ["build", "snapshot", "chromium"],
        waits: true,
      },
    ];
  return Array.from({ length: shards }, (_, i) => ({
    name: `e2e ${i + 1}/${shards}`,
    command: `playwright test --shard=${i + 1}/${shards} --output=test-results/e2e-${i + 1}`,
    budget: E2E_BUDGET,
    needs: ["build", "snapshot", "chromium"],
    waits: true,
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
  { name: "chromium", command: "tsx test/chromium.ts", budget: 30 },
  ...e2eShards(),
  // Right after e2e, so the apps they share are stopped before the other steps run.
  shards === 1
    ? {
        name: "server",
        command: "vitest run --config vitest.server.config.ts",
        budget: 2 * 60,
        needs: ["build", "snapshot"],
        apps: true,
      }
    : {
        // e2e shards each start their own apps (ports 20 apart); the server suite's go above them.
        name: "server",
        command: "vitest run --config vitest.server.config.ts",
        budget: 2 * 60,
        needs: ["build", "snapshot"],
        env: { E2E_PORT: String(e2ePort + 20 * shards), E2E_RUN_ID: `${runId}-server` },
      },
  { name: "integration", command: "vitest run --config vitest.integration.config.ts", budget: 4 * 60, waits: true },
  {
    name: "faults",
    command: "vitest run --config vitest.faults.config.ts",
    budget: 2 * 60,
    needs: ["build", "snapshot"],
  },
  { name: "typecheck", command: "tsc --noEmit", budget: 60, beside: true },
  { name: "unit", command: "vitest run", budget: 90, beside: true },
  { name: "lint", command: "eslint .", budget: 60, beside: true },
  { name: "format", command: "prettier --check **/*.{ts,tsx,mjs,cjs}", budget: 30, beside: true },
];

interface Result {
  step: Step;
  status: "passed" | "failed" | "not run";
  seconds: number;
  /** When it started and ended (ms since the epoch), for the steps it ran beside. */
  from?: number;
  to?: number;
}

const FAILED_TAIL_LINES = 80;

function stepLog(step: Step): string {
  return path.join(logDir, `${step.name.replace(/\W+/g, "-")}.log`);
}

/**
 * test/apps.ts's apps (`tsx test/apps.ts`), up from the first step that needs them until stop(); its output goes to
 * test-results/steps/apps.log.
 */
class SharedApps {
  private child: ChildProcess | null = null;
  private starting: Promise<void> | null = null;
  readonly log = path.join(logDir, "apps.log");

  start(): Promise<void> {
    this.starting ??= new Promise<void>((resolve, reject) => {
      const log = createWriteStream(this.log);
      // One process (node --import tsx), so SIGTERM reaches the code that stops the apps.
      const child = spawn(process.execPath, ["--import", "tsx", "test/apps.ts"], {
        env: { ...process.env, E2E_RUN_ID: runId },
        stdio: ["ignore", "pipe", "pipe"],
      });
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
  return runStep({ ...step, env: { ...step.env, [TEST_APPS_UP]: "1" } });
}

function runStep(step: Step): Promise<Result> {
  const started = Date.now();
  const logFile = stepLog(step);
  const log = createWriteStream(logFile);
  console.log(`==> ${step.name}: ${step.command}`);
  return new Promise((resolve) => {
    // npx resolves the project's binaries as `npm run` would.
    const child = spawn("npx", ["--no-install", ...step.command.split(" ")], {
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
        console.log(
          `\n==> ${step.name} ${status} in ${seconds.toFixed(0)} s (${path.relative(process.cwd(), logFile)})\n${readFileSync(logFile, "utf8")}`,
        );
        resolve({ step, status, seconds, from: started, to: Date.now() });
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
function table(results: Result[], wallSeconds: number): string {
  const rows = [
    ["step", "result", "seconds", "budget", "", "ran beside"],
    ...results.map((r) => [
      r.step.name,
      r.status,
      r.status === "not run" ? "" : r.seconds.toFixed(0),
      String(r.step.budget),
      r.status !== "not run" && r.seconds > r.step.budget ? "over budget" : "",
      besideOf(r, results),
    ]),
    ["(wall clock)", "", wallSeconds.toFixed(0), "", "", ""],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const numeric = new Set([2, 3]);
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

  const started = Date.now();
  const results = new Map<string, Result>();
  const running = new Map<string, Promise<Result>>();
  const waiting = [...steps];
  const failedOrSkipped = (name: string) => ["failed", "not run"].includes(results.get(name)?.status ?? "");
  const apps = new SharedApps();
  const appSteps = steps.filter((step) => step.apps);

  // The step started beside a waiting one beyond TEST_JOBS, if any: one at a time.
  let extra: string | null = null;
  const roomBeside = () =>
    extra === null && [...running.keys()].some((name) => steps.find((s) => s.name === name)?.waits);
  while (waiting.length > 0 || running.size > 0) {
    for (const step of [...waiting]) {
      const full = running.size >= jobs;
      if (full && !(step.beside && roomBeside())) continue;
      const needs = step.needs ?? [];
      if (needs.some(failedOrSkipped)) {
        waiting.splice(waiting.indexOf(step), 1);
        results.set(step.name, { step, status: "not run", seconds: 0 });
        continue;
      }
      if (!needs.every((name) => results.get(name)?.status === "passed")) continue;
      waiting.splice(waiting.indexOf(step), 1);
      if (full) extra = step.name;
      running.set(step.name, step.apps ? runStepWithApps(step, apps) : runStep(step));
    }
    if (running.size === 0) break;
    const done = await Promise.race(running.values());
    running.delete(done.step.name);
    if (extra === done.step.name) extra = null;
    results.set(done.step.name, done);
    if (appSteps.every((step) => results.has(step.name))) await apps.stop();
  }
  await apps.stop();

  const ordered = steps.map((s) => results.get(s.name)!);
  const failed = ordered.filter((r) => r.status !== "passed");
  console.log(
    `\nnpm test: ${ordered.length - failed.length} of ${ordered.length} steps passed (${jobs} at a time)\n${table(ordered, (Date.now() - started) / 1000)}`,
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
