// The embedded database's thread, started by `npm start` (start.mjs) before Next.js loads, so that PGlite opens
// while Next.js starts instead of after it. The app takes the thread over when it opens its database
// (lib/db/embedded-server.ts); until then its messages are kept. The thread runs a bundle of
// lib/db/embedded-worker.ts that `npm run build` writes (scripts/build-embedded-worker.ts): Next.js's own
// bundle of it cannot be found before Next.js loads. Without that file (a build by `next build` alone) the
// app starts the thread itself, as it does under `next start` and `next dev`.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";

/** Where `npm run build` writes the thread's bundle, under the project. */
export const EARLY_WORKER_FILE = ".next/verbatim-embedded-worker.mjs";
/** The global the app finds the thread under (the same process and realm as Next.js's server). */
export const EARLY_EMBEDDED = Symbol.for("verbatim.embeddedEarly");

/**
 * Starts the thread for `dataDir` from the bundle `entry` (the build's EARLY_WORKER_FILE) when it is there (`port`:
 * the app's, for the data folder's lock);
 * returns whether it did. Unreferenced: until the app takes it, it keeps the process alive no more than it
 * would have before the app started it.
 */
export function startEmbeddedEarly(entry, dataDir, port) {
  if (!existsSync(entry)) return false;
  const worker = new Worker(entry, { workerData: { dataDir, port } });
  worker.unref();
  const logs = [];
  const early = { dataDir, worker, onLog: null, takeLogs: () => logs.splice(0) };
  early.ready = new Promise((resolve, reject) => {
    worker.on("message", (message) => {
      if (message.type === "log") (early.onLog ?? ((line) => logs.push(line)))(message);
      else if (message.type === "ready") resolve(message);
      else if (message.type === "failed")
        reject(
          message.locked
            ? Object.assign(new Error(message.message), { locked: true })
            : new Error(`the embedded database could not open: ${message.message}`),
        );
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  });
  early.ready.catch(() => {}); // the app awaits it
  globalThis[EARLY_EMBEDDED] = early;
  return true;
}
