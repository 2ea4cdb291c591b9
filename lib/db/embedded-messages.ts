// What the embedded database's thread (embedded-worker.ts) and the app (embedded-server.ts) tell each other.

export interface EmbeddedWorkerData {
  /** The PGlite database folder. */
  dir: string;
  /** The Unix socket it is served on, in a folder only this user can enter. */
  socketPath: string;
  maxConnections: number;
}

export type FromEmbeddedWorker =
  | { type: "ready"; start: string; applied: number; openMs: number }
  | { type: "failed"; message: string }
  | { type: "log"; level?: "error"; fields: Record<string, unknown>; message: string }
  | { type: "closed" };

export type ToEmbeddedWorker = { type: "close" };
