import "server-only";
import path from "node:path";
import type pg from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { PGlite } from "@electric-sql/pglite";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";

export type Db = PrismaClient;

/**
 * The open database. On the embedded one, Prisma (its client module and query compiler) is loaded by the
 * first getDb(), not when the database opens: /health and the start's own work read PGlite directly
 * (lib/db/hot-sql.ts), so a start's first answer does not wait for it.
 */
interface Connection {
  client?: PrismaClient;
  /** The embedded database's Prisma client while it loads. */
  loading?: Promise<PrismaClient>;
  kind: DbKind;
  pool?: pg.Pool;
  pglite?: PGlite;
}

// One client per process, kept on globalThis so dev-mode reloads do not open new pools.
const globalForDb = globalThis as unknown as { verbatimDb?: Promise<Connection> };

export type DbKind = "postgres" | "pglite";

async function connectPostgres(url: string): Promise<Connection> {
  const [{ default: pg }, { PrismaPg }, { PrismaClient }] = await Promise.all([
    import("pg"),
    import("@prisma/adapter-pg"),
    import("@/lib/generated/prisma/client"),
  ]);
  // Our own pool, shared with Prisma, so the hottest statements can skip the ORM (lib/db/hot-sql.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closed (a restart, a dropped database) is replaced on the next query.
  pool.on("error", (error) => log.warn({ err: error.message }, "database: idle connection lost"));
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return { client: new PrismaClient({ adapter }), kind: "postgres" as const, pool };
}

async function connectEmbedded(dataDir: string): Promise<Connection> {
  // PGlite is loaded only for the embedded default.
  const { openEmbeddedDatabase } = await import("@/lib/db/embedded");
  // Where a start's time goes: opening PGlite (restoring the build's snapshot on a fresh folder)
  // and the migration check (skipped when the folder's stamp names the committed migrations).
  const started = performance.now();
  const { pglite, start, applied } = await openEmbeddedDatabase(path.resolve(dataDir, "pglite"), {
    log: (fields, message) => log.info(fields, message),
  });
  closeOnExit(pglite);
  log.info(
    { start, applied: applied.length, openMs: Math.round(performance.now() - started) },
    "embedded database open",
  );
  return { kind: "pglite", pglite };
}

async function prismaOnPglite(pglite: PGlite): Promise<PrismaClient> {
  const [{ PrismaPGlite }, { PrismaClient }] = await Promise.all([
    import("pglite-prisma-adapter"),
    import("@/lib/generated/prisma/client"),
  ]);
  return new PrismaClient({ adapter: new PrismaPGlite(pglite) });
}

/**
 * Shuts PGlite down cleanly when the process exits through process.exit (what `next start` does on SIGTERM
 * and SIGINT): without it every start replays the write-ahead log since the last checkpoint, which only a
 * clean shutdown writes. Installed before the job runner's own wrapper (lib/jobs/start.ts), so the runner
 * has stopped before the database closes.
 */
function closeOnExit(pglite: { close(): Promise<void> }): void {
  const exit = process.exit.bind(process);
  let closing: Promise<unknown> | undefined;
  process.exit = ((code?: number | string | null) => {
    closing ??= Promise.race([
      pglite.close(),
      new Promise((resolve) => setTimeout(resolve, EXIT_CLOSE_TIMEOUT_MS).unref()),
    ]).catch((error: unknown) => log.error({ err: error }, "embedded database close failed"));
    void closing.finally(() => exit(code));
  }) as typeof process.exit;
}

/** Longest an exiting process waits for the embedded database to shut down. */
const EXIT_CLOSE_TIMEOUT_MS = 5000;

function connection() {
  if (!globalForDb.verbatimDb) {
    const settings = env();
    const pending = settings.DATABASE_URL ? connectPostgres(settings.DATABASE_URL) : connectEmbedded(settings.DATA_DIR);
    // A failed start is not cached, so the next call tries again.
    pending.catch(() => (globalForDb.verbatimDb = undefined));
    globalForDb.verbatimDb = pending;
  }
  return globalForDb.verbatimDb;
}

/** The Prisma client; with the embedded default, resolves after migrations are applied. */
export async function getDb(): Promise<PrismaClient> {
  const open = await connection();
  if (open.client) return open.client;
  open.loading ??= prismaOnPglite(open.pglite!).then(
    (client) => (open.client = client),
    (error: unknown) => {
      open.loading = undefined;
      throw error;
    },
  );
  return open.loading;
}

/** The PostgreSQL pool Prisma uses (null with the embedded database): for lib/db/hot-sql.ts only. */
export async function pgPool(): Promise<pg.Pool | null> {
  return (await connection()).pool ?? null;
}

/** The embedded database Prisma uses (null on PostgreSQL): for lib/db/hot-sql.ts only. */
export async function embeddedDatabase(): Promise<PGlite | null> {
  return (await connection()).pglite ?? null;
}

export async function dbKind(): Promise<DbKind> {
  return (await connection()).kind;
}
