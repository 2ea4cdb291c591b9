import "server-only";
import path from "node:path";
import type pg from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { EmbeddedServer } from "@/lib/db/embedded-server";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";

export type Db = PrismaClient;

/**
 * The open database, reached the one way whichever it is: pg's pool, shared by Prisma (through its pg adapter)
 * and the hottest statements (lib/db/hot-sql.ts). The embedded database is served on a Unix socket by a
 * thread of its own (lib/db/embedded-server.ts). Prisma (its client module and query compiler) is loaded by
 * the first getDb(), not when the database opens: /health and the start's own work go through the pool, so a
 * start's first answer does not wait for it.
 */
interface Connection {
  kind: DbKind;
  pool?: pg.Pool;
  client?: PrismaClient;
  /** The Prisma client while it loads. */
  loading?: Promise<PrismaClient>;
  embedded?: EmbeddedServer;
  /** Set as the process stops the embedded database: its connection's end is expected then, not a loss. */
  stopping?: boolean;
}

// One connection per process, kept on globalThis so dev-mode reloads do not open new pools or a second
// embedded server.
const globalForDb = globalThis as unknown as { verbatimDb?: Promise<Connection>; verbatimDbOpen?: boolean };

export type DbKind = "postgres" | "pglite";

async function connectPostgres(url: string): Promise<Connection> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closed (a restart, a dropped database) is replaced on the next query.
  pool.on("error", (error) => log.warn({ err: error.message }, "database: idle connection lost"));
  return { kind: "postgres", pool };
}

async function connectEmbedded(dataDir: string, port: number): Promise<Connection> {
  const [{ startEmbeddedServer }, { default: pg }] = await Promise.all([
    import("@/lib/db/embedded-server"),
    import("pg"),
  ]);
  // Where a start's time goes: opening PGlite in its thread (restoring the build's snapshot on a fresh
  // folder), the migration check (skipped when the folder's stamp names the committed migrations), serving.
  const started = performance.now();
  const embedded = await startEmbeddedServer(path.resolve(dataDir), log, { port });
  const connection: Connection = { kind: "pglite", embedded };
  closeOnExit(connection);
  log.info({ ...embedded.opened, readyMs: Math.round(performance.now() - started) }, "embedded database open");
  // PGlite is one session: one connection, so a transaction never shares it with another connection's
  // statements (pglite-socket passes messages on one at a time; the extended protocol's Parse, Bind and
  // Execute of two connections could interleave). Kept open while idle; a replacement (after the thread
  // restarted, or the connection failed) starts with a session of its own as PostgreSQL would give it:
  // statements prepared, settings made and locks taken by the one before are dropped.
  const pool = new pg.Pool({
    host: embedded.socketDir,
    user: "postgres",
    database: "postgres",
    max: 1,
    idleTimeoutMillis: 0,
    // Awaited by the pool before it hands the connection out (a failure fails that checkout).
    onConnect: async (client: pg.ClientBase) => void (await client.query("DISCARD ALL")),
  });
  pool.on("error", (error) => {
    if (!connection.stopping) log.warn({ err: error.message }, "database: embedded connection lost");
  });
  connection.pool = pool;
  return connection;
}

async function prismaOn(pool: pg.Pool): Promise<PrismaClient> {
  const [{ PrismaPg }, { PrismaClient }] = await Promise.all([
    import("@prisma/adapter-pg"),
    import("@/lib/generated/prisma/client"),
  ]);
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}

/**
 * Shuts PGlite down cleanly when the process exits through process.exit (what `next start` does on SIGTERM
 * and SIGINT): without it every start replays the write-ahead log since the last checkpoint, which only a
 * clean shutdown writes. The thread is asked to close and waited for, at most EXIT_CLOSE_TIMEOUT_MS.
 * Installed before the job runner's own wrapper (lib/jobs/start.ts), so the runner has stopped before the
 * database closes.
 */
function closeOnExit(connection: Connection): void {
  const exit = process.exit.bind(process);
  let closing: Promise<unknown> | undefined;
  process.exit = ((code?: number | string | null) => {
    connection.stopping = true;
    closing ??= connection
      .embedded!.close(EXIT_CLOSE_TIMEOUT_MS)
      .catch((error: unknown) => log.error({ err: error }, "embedded database close failed"));
    void closing.finally(() => exit(code));
  }) as typeof process.exit;
}

/** Longest an exiting process waits for the embedded database to shut down. */
const EXIT_CLOSE_TIMEOUT_MS = 5000;

function connection() {
  if (!globalForDb.verbatimDb) {
    const settings = env();
    const pending = settings.DATABASE_URL
      ? connectPostgres(settings.DATABASE_URL)
      : connectEmbedded(settings.DATA_DIR, settings.PORT);
    // A failed start is not cached, so the next call tries again.
    pending.then(
      () => (globalForDb.verbatimDbOpen = true),
      () => (globalForDb.verbatimDb = undefined),
    );
    globalForDb.verbatimDbOpen = false;
    globalForDb.verbatimDb = pending;
  }
  return globalForDb.verbatimDb;
}

/** The Prisma client; with the embedded default, resolves after migrations are applied. */
export async function getDb(): Promise<PrismaClient> {
  const open = await connection();
  if (open.client) return open.client;
  open.loading ??= prismaOn(open.pool!).then(
    (client) => (open.client = client),
    (error: unknown) => {
      open.loading = undefined;
      throw error;
    },
  );
  return open.loading;
}

/** The pool Prisma uses: for lib/db/hot-sql.ts only. */
export async function pgPool(): Promise<pg.Pool> {
  const pool = (await connection()).pool;
  if (!pool) throw new Error("this database connection has no pool");
  return pool;
}

/** Whether the embedded database is being opened now (its copy made, its thread started, migrations applied). */
export function embeddedOpening(): boolean {
  return !env().DATABASE_URL && globalForDb.verbatimDb !== undefined && globalForDb.verbatimDbOpen === false;
}

/** Whether the embedded database is open and its thread serves now (false on PostgreSQL, while it opens or restarts). */
export async function embeddedServing(): Promise<boolean> {
  if (env().DATABASE_URL || !globalForDb.verbatimDb || !globalForDb.verbatimDbOpen) return false;
  return (await globalForDb.verbatimDb).embedded?.serving() ?? false;
}

export async function dbKind(): Promise<DbKind> {
  return (await connection()).kind;
}

/**
 * Closes the pool and, on the embedded default, shuts the database's thread down; the next call opens anew.
 * For scripts and tests that end without process.exit.
 */
export async function closeDatabase(): Promise<void> {
  const pending = globalForDb.verbatimDb;
  if (!pending) return;
  globalForDb.verbatimDb = undefined;
  const open = await pending.catch(() => null);
  if (!open) return;
  open.stopping = true;
  await (open.client ? open.client.$disconnect() : open.pool?.end());
  await open.embedded?.close(EXIT_CLOSE_TIMEOUT_MS);
}

/**
 * Pings the embedded database. Its one connection may be held by another request's statement for seconds (a
 * large correction): a ping that has not got the connection within `turnMs`, while the database's thread
 * serves, resolves "busy" rather than wait its turn (the connection, once its turn comes, is handed straight
 * back). One that has it runs `SELECT 1`.
 */
export async function pingEmbedded(turnMs: number): Promise<"answered" | "busy"> {
  const open = await connection();
  if (!open.embedded || !open.pool) throw new Error("not the embedded database");
  if (!open.embedded.serving()) throw new Error("the embedded database is not serving");
  const checkout = open.pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const turn = await Promise.race([
    checkout,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), turnMs))),
  ]);
  clearTimeout(timer);
  if (!turn) {
    checkout.then(
      (client) => client.release(),
      () => {},
    );
    return open.embedded.serving() ? "busy" : Promise.reject(new Error("the embedded database stopped serving"));
  }
  try {
    await turn.query("SELECT 1");
    return "answered";
  } finally {
    turn.release();
  }
}
