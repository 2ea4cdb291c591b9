// Before each integration file (vitest.integration.config.ts runs them without isolation): what a file starts from
// is what a process of its own would start from. Loading node_modules (Next.js, Prisma's runtime, pg, zod) once a
// worker instead of once a file is most of what the suite saves; the app's own modules are loaded again for each
// file (vi.resetModules), so their settings (lib/env.ts reads process.env once), clients and caches are the file's
// own. What outlives a module reset is put back here: process.env, the app's process-wide holders on globalThis,
// and prom-client's registry (the app's metrics register there when lib/observability/metrics.ts loads).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import client from "prom-client";
import { vi } from "vitest";

interface Baseline {
  env: Record<string, string | undefined>;
  globals: Set<string | symbol>;
}

// Not a name isAppHolder matches: the baseline outlives every file of the worker.
const BASELINE = Symbol.for("integration-file-baseline");
const worker = globalThis as { [BASELINE]?: Baseline };

/** The app keeps its process-wide state on globalThis under names that say so: verbatim…, Symbol.for("verbatim.…"). */
const isAppHolder = (key: string | symbol) =>
  typeof key === "string" ? key.startsWith("verbatim") : (key.description ?? "").startsWith("verbatim.");

const baseline = worker[BASELINE];
if (!baseline) {
  // A data folder of the worker's own for a file that names none: the checkout's ./data would be taken (and its
  // lock held for the rest of the worker's life, which outlives the file) from under `npm start` and the server
  // suite's quickstart test, which use it beside this run.
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "verbatim-integration-worker-"));
  worker[BASELINE] = { env: { ...process.env }, globals: new Set(Reflect.ownKeys(globalThis)) };
} else {
  for (const name of Object.keys(process.env)) if (!(name in baseline.env)) delete process.env[name];
  Object.assign(process.env, baseline.env);
  for (const key of Reflect.ownKeys(globalThis))
    if (!baseline.globals.has(key) && isAppHolder(key)) delete (globalThis as Record<string | symbol, unknown>)[key];
  client.register.clear();
  vi.resetModules();
}

// TEST_FILE_CPU_LOG=<file>: each file's CPU seconds (this worker's threads, and the child processes it waited for)
// appended as a line of JSON, to find what a run's CPU goes to.
const cpuLog = process.env.TEST_FILE_CPU_LOG;
if (cpuLog) {
  const { appendFileSync, readFileSync } = await import("node:fs");
  const { afterAll, beforeAll, expect } = await import("vitest");
  const children = () => {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  };
  let from: { own: NodeJS.CpuUsage; children: number; at: number };
  beforeAll(() => {
    from = { own: process.cpuUsage(), children: children(), at: Date.now() };
  });
  afterAll(() => {
    const own = process.cpuUsage(from.own);
    appendFileSync(
      cpuLog,
      `${JSON.stringify({
        file: expect.getState().testPath,
        pid: process.pid,
        own: (own.user + own.system) / 1e6,
        children: children() - from.children,
        wall: (Date.now() - from.at) / 1000,
      })}\n`,
    );
  });
}
