import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sourceThread } from "@/lib/process/source-thread";
import { DataDirLocked } from "@/lib/db/data-dir-lock";
import {
  EARLY_EMBEDDED,
  type EarlyEmbedded,
  type EmbeddedWorkerData,
  type FromEmbeddedWorker,
} from "@/lib/db/embedded-messages";

// The embedded database runs in a worker thread of its own (embedded-worker.ts) and is reached over a Unix
// socket, like PostgreSQL (docs/decisions/0020-the-embedded-database-in-a-thread-of-its-own.md). A thread, not
// a child process: it ends with the process however the process ends, so no orphan keeps the database
// folder open after a crash, and it starts without a second Node.js. `npm start` starts the first thread
// before Next.js loads (scripts/embedded-early.mjs); the app takes that one over.

/** Restarts after the thread stopped unexpectedly, within RESTART_WINDOW_MS, before giving up. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface EmbeddedServerLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface EmbeddedServer {
  /** The folder holding the socket: pg's `host`. */
  socketDir: string;
  /** How the database folder was brought up to date at the first start. */
  opened: { start: string; applied: number; openMs: number };
  /** Whether the thread is up and serving (false while it restarts, and once it gave up). */
  serving(): boolean;
  /** Shuts PGlite down cleanly and ends the thread; resolves once it has, or after `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
}

function spawn(data: EmbeddedWorkerData): Promise<Worker> | Worker {
  const options = { workerData: data };
  // NEXT_RUNTIME is Next.js's build-time constant ("nodejs" in server bundles), not a setting. In the built
  // app Turbopack bundles the entry as a worker chunk of its own; elsewhere (tests, tsx scripts) see
  // lib/process/source-thread.ts.
  if (process.env.NEXT_RUNTIME !== "nodejs")
    return sourceThread(new URL(import.meta.url.replace(/[^/]*$/, "embedded-worker.ts")), options);
  return new Worker(new URL("./embedded-worker.ts", import.meta.url), options);
}

interface StartedThread {
  worker: Worker;
  socketPath: string;
  opened: EmbeddedServer["opened"];
}

const startedThread = (worker: Worker, ready: Extract<FromEmbeddedWorker, { type: "ready" }>): StartedThread => ({
  worker,
  socketPath: ready.socketPath,
  opened: { start: ready.start, applied: ready.applied, openMs: ready.openMs },
});

/** A refused start (another process holds the folder) keeps its sentence as it is: it is what the process prints. */
function openFailure(message: Extract<FromEmbeddedWorker, { type: "failed" }>): Error {
  if (message.locked) return new DataDirLocked(message.message);
  return new Error(`the embedded database could not open: ${message.message}`);
}

/** Starts a thread and resolves once it serves, with how it opened the database. */
async function startThread(data: EmbeddedWorkerData, log: EmbeddedServerLog): Promise<StartedThread> {
  const worker = await spawn(data);
  return new Promise((resolve, reject) => {
    worker.on("message", (message: FromEmbeddedWorker) => {
      if (message.type === "log") log[message.level ?? "info"](message.fields, message.message);
      else if (message.type === "ready") resolve(startedThread(worker, message));
      else if (message.type === "failed") reject(openFailure(message));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  });
}

/**
 * The thread `npm start` started for this `dataDir` before Next.js loaded, once it serves; undefined when
 * there is none (or it failed: the app then starts one itself, which says why if it fails too). Taken once:
 * a thread started again after a failure is the app's own.
 */
async function takeEarlyThread(dataDir: string, log: EmbeddedServerLog): Promise<StartedThread | undefined> {
  const holder = globalThis as { [EARLY_EMBEDDED]?: EarlyEmbedded };
  const early = holder[EARLY_EMBEDDED];
  if (!early) return undefined;
  delete holder[EARLY_EMBEDDED];
  const logLine: NonNullable<EarlyEmbedded["onLog"]> = (line) => log[line.level ?? "info"](line.fields, line.message);
  early.onLog = logLine;
  early.takeLogs().forEach(logLine);
  if (early.dataDir !== dataDir) {
    // Started for another folder than the app's settings name: closed once it is open.
    early.worker.postMessage({ type: "close" });
    return undefined;
  }
  try {
    const ready = await early.ready;
    early.worker.ref();
    return startedThread(early.worker, ready);
  } catch (error) {
    if ((error as { locked?: boolean }).locked) throw new DataDirLocked((error as Error).message);
    log.error({ err: error instanceof Error ? error.message : String(error) }, "embedded database: starting it again");
    return undefined;
  }
}

/**
 * Opens the embedded database in `dataDir/pglite` on its own thread, served on a socket under `dataDir`.
 * Rejects with DataDirLocked when another process holds the folder. `port`: the app's, for the folder's lock.
 */
export async function startEmbeddedServer(
  dataDir: string,
  log: EmbeddedServerLog,
  opts: { port?: number } = {},
): Promise<EmbeddedServer> {
  const first = (await takeEarlyThread(dataDir, log)) ?? (await startThread({ dataDir, port: opts.port }, log));
  const data: EmbeddedWorkerData = { dataDir, socketPath: first.socketPath, port: opts.port };
  let worker: Worker | null = first.worker;
  let closing = false;
  const restarts: number[] = [];

  // A thread that stops on its own (PGlite aborted, out of memory) is started again: the statements it was
  // running fail as a lost connection (503 database_unavailable), and PostgreSQL's own recovery replays
  // the write-ahead log at the next open. One that keeps stopping is left down, said once.
  const watch = (current: Worker) => {
    current.on("error", (error) => log.error({ err: error.message }, "embedded database thread failed"));
    current.once("exit", (code) => {
      if (closing || worker !== current) return;
      worker = null;
      const now = Date.now();
      while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length >= MAX_RESTARTS) {
        log.error({ code }, "embedded database thread stopped again: left down, restart the app");
        return;
      }
      restarts.push(now);
      log.error({ code }, "embedded database thread stopped: starting it again");
      startThread(data, log).then(
        (next) => {
          if (closing) return void next.worker.terminate();
          worker = next.worker;
          watch(next.worker);
          log.info(next.opened, "embedded database open again");
        },
        (error: unknown) => log.error({ err: String(error) }, "embedded database could not be started again"),
      );
    });
  };
  watch(first.worker);

  let closed: Promise<void> | undefined;
  const close = async (current: Worker, timeoutMs: number) => {
    const exited = new Promise<void>((resolve) => current.once("exit", () => resolve()));
    current.postMessage({ type: "close" });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
    if ((await Promise.race([exited, late])) === "late") {
      log.error({ timeoutMs }, "embedded database did not close in time");
      await current.terminate();
    }
    clearTimeout(timer);
  };

  return {
    socketDir: path.dirname(first.socketPath),
    opened: first.opened,
    serving: () => worker !== null,
    close(timeoutMs) {
      closing = true;
      if (worker) closed ??= close(worker, timeoutMs);
      return closed ?? Promise.resolve();
    },
  };
}
