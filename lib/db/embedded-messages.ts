// What the embedded database's thread (embedded-worker.ts) and the app (embedded-server.ts) tell each other.

export interface EmbeddedWorkerData {
  /** DATA_DIR, resolved: the database is its `pglite` folder. */
  dataDir: string;
  /** The Unix socket to serve on; unset, the thread chooses it (embedded-socket.ts) and says which when ready. */
  socketPath?: string;
  /** The port the app listens on, written into the data folder's lock for `npm run doctor`. */
  port?: number;
}

export type FromEmbeddedWorker =
  | { type: "ready"; socketPath: string; start: string; applied: number; openMs: number }
  /** `locked`: another process holds the data folder (lib/db/data-dir-lock.ts); the message names it. */
  | { type: "failed"; message: string; locked?: boolean }
  | { type: "log"; level?: "error"; fields: Record<string, unknown>; message: string }
  | { type: "closed" };

export type ToEmbeddedWorker = { type: "close" };

/**
 * The thread `npm start` starts before Next.js loads (scripts/embedded-early.mjs), as the app finds it on
 * `globalThis[EARLY_EMBEDDED]` and takes it over (embedded-server.ts).
 */
export interface EarlyEmbedded {
  dataDir: string;
  worker: import("node:worker_threads").Worker;
  ready: Promise<Extract<FromEmbeddedWorker, { type: "ready" }>>;
  /** The log lines the thread sent before the app took it over. */
  takeLogs(): Extract<FromEmbeddedWorker, { type: "log" }>[];
  /** Where later log lines go, once the app has taken it over. */
  onLog: ((line: Extract<FromEmbeddedWorker, { type: "log" }>) => void) | null;
}

export const EARLY_EMBEDDED = Symbol.for("verbatim.embeddedEarly");
