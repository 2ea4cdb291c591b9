import "server-only";
import { lstatSync } from "node:fs";
import { chmod, mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { EmbeddedWorkerData, FromEmbeddedWorker } from "@/lib/db/embedded-messages";

// The embedded database runs in a worker thread of its own (embedded-worker.ts) and is reached over a Unix
// socket, like PostgreSQL (docs/decisions/0020-the-embedded-database-in-a-thread-of-its-own.md). A thread, not
// a child process: it ends with the process however the process ends, so no orphan keeps the database
// folder open after a crash, and it starts without a second Node.js.

/** The socket's name in its folder, as libpq and pg look for it (`host` is the folder). */
const SOCKET_NAME = ".s.PGSQL.5432";
/** The longest socket path every supported system takes (sun_path is 104 bytes on macOS, 108 on Linux). */
const SOCKET_PATH_MAX = 100;
/**
 * PGlite is one session, which pglite-socket shares between its connections message by message: the app's
 * pool keeps one connection (lib/db/client.ts); the second is room for its replacement while the server
 * has not yet seen the old one close.
 */
export const EMBEDDED_MAX_CONNECTIONS = 2;
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

/**
 * The socket's folder: `DATA_DIR/socket`, mode 0700, so no other user of the machine reaches the database;
 * where that path is too long for a socket, a fresh 0700 folder in the system's temporary folder.
 */
async function socketFolder(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, "socket");
  if (path.join(folder, SOCKET_NAME).length > SOCKET_PATH_MAX) return mkdtemp(path.join(os.tmpdir(), "verbatim-db-"));
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()))
    throw new Error(`${folder} must be a folder of this user's: the embedded database's socket goes there`);
  await chmod(folder, 0o700);
  return folder;
}

function spawn(data: EmbeddedWorkerData): Worker {
  const options = { workerData: data };
  // NEXT_RUNTIME is Next.js's build-time constant ("nodejs" in server bundles), not a setting. In the built
  // app Turbopack bundles the entry as a worker chunk of its own; elsewhere (tests, tsx scripts) the thread
  // registers tsx, then imports the TypeScript entry (as lib/process/off-thread.ts does).
  if (process.env.NEXT_RUNTIME !== "nodejs") {
    const entry = import.meta.url.replace(/[^/]*$/, "embedded-worker.ts");
    return new Worker(
      `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
      { ...options, eval: true },
    );
  }
  return new Worker(new URL("./embedded-worker.ts", import.meta.url), options);
}

/** Starts a thread and resolves once it serves, with how it opened the database. */
function startThread(
  data: EmbeddedWorkerData,
  log: EmbeddedServerLog,
): Promise<{ worker: Worker; opened: EmbeddedServer["opened"] }> {
  const worker = spawn(data);
  return new Promise((resolve, reject) => {
    worker.on("message", (message: FromEmbeddedWorker) => {
      if (message.type === "log") log[message.level ?? "info"](message.fields, message.message);
      else if (message.type === "ready")
        resolve({ worker, opened: { start: message.start, applied: message.applied, openMs: message.openMs } });
      else if (message.type === "failed") reject(new Error(`the embedded database could not open: ${message.message}`));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  });
}

/** Opens the embedded database in `dataDir/pglite` on its own thread, served on a socket under `dataDir`. */
export async function startEmbeddedServer(dataDir: string, log: EmbeddedServerLog): Promise<EmbeddedServer> {
  const socketDir = await socketFolder(dataDir);
  const data: EmbeddedWorkerData = {
    dir: path.join(dataDir, "pglite"),
    socketPath: path.join(socketDir, SOCKET_NAME),
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  };
  const first = await startThread(data, log);
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
    socketDir,
    opened: first.opened,
    serving: () => worker !== null,
    close(timeoutMs) {
      closing = true;
      if (worker) closed ??= close(worker, timeoutMs);
      return closed ?? Promise.resolve();
    },
  };
}
