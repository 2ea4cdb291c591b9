import path from "node:path";
import { mkdirSync } from "node:fs";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";

export type Db = PrismaClient;

// One client per process, kept on globalThis so dev-mode reloads do not open new pools.
const globalForDb = globalThis as unknown as { verbatimDb?: Promise<{ client: PrismaClient; kind: DbKind }> };

export type DbKind = "postgres" | "pglite";

async function connectPostgres(url: string) {
  const adapter = new PrismaPg({ connectionString: url, max: 10 });
  return { client: new PrismaClient({ adapter }), kind: "postgres" as const };
}

async function connectEmbedded(dataDir: string) {
  // PGlite and its adapter are loaded only for the embedded default.
  const [{ PGlite }, { PrismaPGlite }, { applyMigrations, pgliteExecutor }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("pglite-prisma-adapter"),
    import("@/lib/db/migrate"),
  ]);
  const dir = path.resolve(dataDir, "pglite");
  mkdirSync(dir, { recursive: true });
  // Where a start's time goes (issue 25): opening PGlite (a fresh folder runs initdb in WebAssembly,
  // seconds) and the migration check (tens of ms once applied).
  const started = performance.now();
  const pglite = await PGlite.create(dir);
  const opened = performance.now();
  await applyMigrations(pgliteExecutor(pglite), { log: (line) => log.info(line) });
  log.info({ openMs: Math.round(opened - started), migrateMs: Math.round(performance.now() - opened) }, "embedded database open");
  return { client: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), kind: "pglite" as const };
}

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
  return (await connection()).client;
}

export async function dbKind(): Promise<DbKind> {
  return (await connection()).kind;
}
