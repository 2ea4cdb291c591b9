// Helpers for the job tests: child runner processes, waiting, counting effects.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { entryArgs } from "../entry-bundles";
import { WAIT_TIMEOUT_MS, waitUntil } from "../wait";

const CHILD = fileURLToPath(new URL("./runner-child.ts", import.meta.url));
const RELAY_CHILD = fileURLToPath(new URL("./relay-child.ts", import.meta.url));
const WORKER = fileURLToPath(new URL("../../scripts/worker.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildRunner {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): string;
}

function spawnTs(file: string, args: string[], env: Record<string, string>, readyLine: RegExp): Promise<ChildRunner> {
  const child = spawn(process.execPath, [...entryArgs(file), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A child that never got ready is killed: no test holds it to stop it later. The deadline is generous: on a
    // loaded two-core machine, compiling the worker's imports alone has taken over half a minute.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`child did not start in time:\n${out}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (readyLine.test(out)) {
        clearTimeout(timer);
        resolve({ child, exited, output: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before it was ready:\n${out}`));
    });
  });
}

/** Starts test/jobs/runner-child.ts against `databaseUrl`; resolves when it listens. */
export function spawnChildRunner(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildRunner> {
  return spawnTs(CHILD, [], { DATABASE_URL: databaseUrl, ...env }, /^ready$/m);
}

/** Starts test/jobs/relay-child.ts (the Inngest relay) against `databaseUrl`; resolves when it listens. */
export function spawnChildRelay(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildRunner> {
  return spawnTs(RELAY_CHILD, [], { DATABASE_URL: databaseUrl, ...env }, /^ready$/m);
}

/** Starts scripts/worker.ts; resolves when it runs. */
export function spawnWorker(databaseUrl: string, args: string[] = []): Promise<ChildRunner> {
  return spawnTs(
    WORKER,
    args,
    { DATABASE_URL: databaseUrl, AUTH_SECRET: "worker-test-secret-worker-test-secret" },
    /running as/,
  );
}

/**
 * `npm run worker` as child processes that a test kills: Node itself on the run's bundle of it, or with tsx as a
 * loader (test/entry-bundles.ts; the tsx CLI would run the script in a grandchild that a signal to the child does not
 * reach), with only NODE_ENV=test, PATH,
 * AUTH_SECRET, the suite's voice-activity setting (ASR_VAD), Node's compile cache and `env`; their output kept. `stopAll` after each test.
 */
export function killableWorkers() {
  const children = new Set<ChildProcess>();
  /** Resolves with the exit code (null when killed by a signal), at once when it has exited already. */
  const stop = (child: ChildProcess, signal: NodeJS.Signals = "SIGKILL") =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(signal);
    });
  return {
    start(args: string[], env: Record<string, string | undefined>) {
      const child = spawn(process.execPath, [...entryArgs(WORKER), ...args], {
        env: {
          NODE_ENV: "test",
          PATH: process.env.PATH,
          AUTH_SECRET: process.env.AUTH_SECRET,
          ASR_VAD: process.env.ASR_VAD,
          // npm test's compile cache (scripts/test-all.ts), where the modules are compiled already.
          NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("exit", () => children.delete(child));
      children.add(child);
      return { child, output: () => output };
    },
    stop,
    async stopAll() {
      for (const child of children) await stop(child);
    },
  };
}

/** Until `probe` returns a value; past `timeoutMs` the failure quotes the probe (what was awaited). */
export async function waitFor<T>(
  probe: () => Promise<T | false | null | undefined>,
  timeoutMs = WAIT_TIMEOUT_MS,
  everyMs = 10,
): Promise<T> {
  const source = probe.toString().replace(/\s+/g, " ");
  return waitUntil(`\`${source.length > 300 ? `${source.slice(0, 300)}…` : source}\``, probe, { timeoutMs, everyMs });
}

export function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
