// The embedded database's own thread (embedded-server.ts starts it): opens PGlite (restored from the build's
// snapshot, or migrated) and serves it over PostgreSQL's wire protocol on a Unix socket
// (@electric-sql/pglite-socket), so the app reaches it with pg and Prisma's pg adapter as it reaches
// PostgreSQL. A statement runs here, in WebAssembly, and costs the thread that serves requests nothing but
// reading its answer.
import { unlink } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { acquireDataDirLock, isDataDirLocked } from "@/lib/db/data-dir-lock";
import { openEmbeddedDatabase } from "@/lib/db/embedded";
import type { EmbeddedWorkerData, FromEmbeddedWorker, ToEmbeddedWorker } from "@/lib/db/embedded-messages";
import { embeddedSocketPath } from "@/lib/db/embedded-socket";

/**
 * PGlite is one session, which pglite-socket shares between its connections message by message: the app's
 * pool keeps one connection (lib/db/client.ts); the second is room for its replacement while the server
 * has not yet seen the old one close.
 */
const MAX_CONNECTIONS = 2;

const { dataDir, socketPath: givenSocketPath, port: appPort } = workerData as EmbeddedWorkerData;
const dir = path.join(dataDir, "pglite");
const port = parentPort!;
const post = (message: FromEmbeddedWorker) => port.postMessage(message);

// A close may come while the database is still opening (a process that exits during its start): it is
// done once the database is open, so that PGlite is never stopped half-way through a migration.
let close: (() => void) | undefined;
let closeAsked = false;
port.on("message", (message: ToEmbeddedWorker) => {
  if (message.type !== "close") return;
  closeAsked = true;
  close?.();
});

/**
 * A socket file left by a process that ended without closing it is removed. One that answers belongs to a
 * process serving this database now (the data folder's lock, taken first, keeps that from happening; a
 * socket in the system's temporary folder, for a long DATA_DIR, is never found again by another start).
 */
async function clearStaleSocket(file: string): Promise<void> {
  const answered = await new Promise<boolean>((resolve) => {
    const probe = net.connect(file);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (answered)
    throw new Error(
      `another process serves the embedded database in ${dir} (its socket ${file} answers): one app process per DATA_DIR`,
    );
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

async function serve(): Promise<void> {
  const started = performance.now();
  // Before anything in the folder is read or written; released once PGlite has shut down cleanly. A thread
  // that stops without closing leaves it, and the process's next thread takes it again.
  const lock = await acquireDataDirLock(dataDir, { port: appPort });
  const socketPath = givenSocketPath ?? (await embeddedSocketPath(dataDir));
  await clearStaleSocket(socketPath);
  const { pglite, start, applied } = await openEmbeddedDatabase(dir, {
    log: (fields, message) => post({ type: "log", fields, message }),
  });
  // A statement's errors come back inside the protocol's answer; PGlite throwing is PGlite itself failing (a
  // WebAssembly abort), after which pglite-socket's queue would wait forever. The thread ends instead, and
  // embedded-server.ts starts a fresh one.
  const execute = pglite.execProtocolRawStream.bind(pglite);
  pglite.execProtocolRawStream = (message, options) =>
    execute(message, options).catch((error: unknown) => {
      post({ type: "log", level: "error", fields: { err: String(error) }, message: "embedded database failed" });
      process.exit(1);
    });
  const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: MAX_CONNECTIONS });
  await server.start();
  // Open transactions are rolled back as their connections are detached; PGlite then shuts down cleanly
  // (a checkpoint), so the next start replays no write-ahead log.
  close = () =>
    void server
      .stop()
      .then(() => pglite.close())
      .then(() => lock.release())
      .then(
        () => post({ type: "closed" }),
        (error: unknown) =>
          post({ type: "log", fields: { err: String(error) }, message: "embedded database close failed" }),
      )
      .finally(() => process.exit(0));
  post({ type: "ready", socketPath, start, applied: applied.length, openMs: Math.round(performance.now() - started) });
  if (closeAsked) close();
}

serve().catch((error: unknown) => {
  post({
    type: "failed",
    message: error instanceof Error ? error.message : String(error),
    ...(isDataDirLocked(error) ? { locked: true } : {}),
  });
  process.exit(1);
});
