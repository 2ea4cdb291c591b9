// Applies the committed SQL migrations under prisma/migrations, keeping Prisma's own bookkeeping table
// (`_prisma_migrations`) so the history stays readable by the Prisma CLI. Used by `npm run db:migrate`
// (PostgreSQL through `pg`) and by the app at start for the embedded PGlite database.
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ClientBase } from "pg";

/** The two operations the runner needs from a single database session. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script; no parameters. */
  exec(sql: string): Promise<void>;
}

export function pgExecutor(client: ClientBase): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string) {
      // Without parameters `pg` uses the simple query protocol, which accepts several statements.
      await client.query(sql);
    },
  };
}

export function pgliteExecutor(db: PGlite): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}

/** An applied migration's migration.sql differs from what was applied. Nothing was changed. */
export class MigrationChecksumError extends Error {
  constructor(
    message: string,
    readonly migrations: string[] = [],
  ) {
    super(message);
    this.name = "MigrationChecksumError";
  }
}

/**
 * A migration failed. A transactional one was rolled back, so neither its changes nor its row remain; a
 * NO_TRANSACTION_MARKER one keeps the statements that ran before the failing one (it is written to be run
 * again: DROP INDEX CONCURRENTLY IF EXISTS before each CREATE INDEX CONCURRENTLY), and has no row either.
 */
export class MigrationFailedError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
    transactional = true,
  ) {
    super(
      `Migration ${migration} failed and ${transactional ? "was rolled back" : "stopped (it runs outside a transaction; it is written to be run again)"}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = "MigrationFailedError";
  }
}

/**
 * A migration whose first line is this comment runs outside a transaction, one statement at a time: what
 * `CREATE INDEX CONCURRENTLY` needs (it cannot run in a transaction block), so an index on a big table is
 * built without blocking writes. Its statements are separated by a ";" at the end of a line (no function
 * bodies), and each must be safe to run again (a failed run leaves the ones before it applied).
 */
export const NO_TRANSACTION_MARKER = "-- verbatim:no-transaction";

/** The statements of a NO_TRANSACTION_MARKER migration: split at each ";" that ends a line; comments dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((chunk) =>
      chunk
        .split(/\r?\n/)
        .filter((line) => !/^\s*--/.test(line))
        .join("\n")
        .trim(),
    )
    .filter((statement) => statement !== "");
}

export function runsOutsideTransaction(sql: string): boolean {
  return (
    sql
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/, 1)[0]!
      .trim() === NO_TRANSACTION_MARKER
  );
}

export interface ApplyMigrationsOptions {
  /** Directory of `<timestamp>_<name>/migration.sql` folders. Default: prisma/migrations under process.cwd(). */
  dir?: string;
  log?: (line: string) => void;
}

/** The key Prisma Migrate locks, so this runner and the Prisma CLI never run against a database at once. */
const ADVISORY_LOCK_KEY = 72707369;

// Prisma's own definition of its history table (schema-engine, postgres flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** SHA-256 of the file's bytes, lowercase hex: the checksum Prisma stores in `_prisma_migrations`. */
export function migrationChecksum(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The committed migrations, in name order. */
export async function readMigrations(dir: string): Promise<LocalMigration[]> {
  if (!existsSync(dir)) throw new Error(`Migrations directory not found: ${dir}`);
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const migrations: LocalMigration[] = [];
  for (const name of names) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) throw new Error(`Migration ${name} has no migration.sql (${file})`);
    const bytes = await readFile(file);
    migrations.push({ name, sql: bytes.toString("utf8"), checksum: migrationChecksum(bytes) });
  }
  return migrations;
}

/** Where the migrations live: `dir` (default prisma/migrations) under process.cwd(). */
export function migrationsDir(dir?: string): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), dir ?? "prisma/migrations");
}

/**
 * One SHA-256 over every migration's name and checksum: equal fingerprints mean the same set of migration
 * files, byte for byte. Keys the embedded database's prepared snapshot and its "already migrated" stamp.
 */
export function migrationsFingerprint(migrations: readonly LocalMigration[]): string {
  const hash = createHash("sha256");
  for (const m of migrations) hash.update(`${m.name}\0${m.checksum}\n`);
  return hash.digest("hex");
}

/**
 * Applies every migration folder not yet recorded in `_prisma_migrations`, in name order, each in its own
 * transaction together with its history row. Holds a session advisory lock for the whole run, so concurrent
 * runners apply each migration once. Refuses to do anything if an applied migration's file has changed.
 */
export async function applyMigrations(
  db: SqlExecutor,
  opts: ApplyMigrationsOptions = {},
): Promise<{ applied: string[]; skipped: string[] }> {
  const dir = migrationsDir(opts.dir);
  const log = opts.log ?? (() => {});
  const local = await readMigrations(dir);

  // Waiting by polling, not in pg_advisory_lock(): a session waiting inside a statement holds a snapshot,
  // which the other runner's CREATE INDEX CONCURRENTLY would wait for while we wait for its lock (a deadlock).
  while (
    !(await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${ADVISORY_LOCK_KEY}) AS locked`))[0]?.locked
  )
    await new Promise((resolve) => setTimeout(resolve, 100));
  let failure: unknown = undefined;
  try {
    await db.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await db.query<MigrationRow>(
      `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at"`,
    );
    const live = rows.filter((row) => row.rolled_back_at === null);

    // A row that was started but never finished (left by the Prisma CLI; this runner never leaves one).
    const unfinished = live.filter((row) => row.finished_at === null).map((row) => row.migration_name);
    if (unfinished.length > 0) {
      throw new Error(
        `Migration ${unfinished.join(", ")} is recorded as failed in _prisma_migrations; fix the database by hand ` +
          `and mark it rolled back (rolled_back_at) before migrating again`,
      );
    }

    const appliedRows = new Map<string, MigrationRow[]>();
    for (const row of live) appliedRows.set(row.migration_name, [...(appliedRows.get(row.migration_name) ?? []), row]);

    const edited = local.filter((m) => appliedRows.get(m.name)?.every((row) => row.checksum !== m.checksum));
    if (edited.length > 0) {
      const details = edited.map((m) => {
        const recorded = appliedRows
          .get(m.name)!
          .map((row) => row.checksum)
          .join(", ");
        return `  ${m.name}: applied with checksum ${recorded}, file now has ${m.checksum}`;
      });
      throw new MigrationChecksumError(
        `Refusing to migrate: ${edited.length === 1 ? "an applied migration was" : "applied migrations were"} edited ` +
          `after being applied (${edited.map((m) => m.name).join(", ")}). Nothing was changed.\n` +
          `${details.join("\n")}\nRestore the original migration.sql and put the change in a new migration.`,
        edited.map((m) => m.name),
      );
    }

    const localNames = new Set(local.map((m) => m.name));
    for (const name of appliedRows.keys()) {
      if (!localNames.has(name)) log(`warning: ${name} is applied to the database but missing from ${dir}`);
    }

    const skipped = local.filter((m) => appliedRows.has(m.name)).map((m) => m.name);
    const pending = local.filter((m) => !appliedRows.has(m.name));
    const applied: string[] = [];
    for (const migration of pending) {
      log(`applying ${migration.name}`);
      if (runsOutsideTransaction(migration.sql)) {
        try {
          for (const statement of splitStatements(migration.sql)) await db.exec(statement);
          await db.query(
            `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count")
             VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
            [randomUUID(), migration.checksum, migration.name],
          );
        } catch (error) {
          throw new MigrationFailedError(migration.name, error, false);
        }
        applied.push(migration.name);
        continue;
      }
      await db.query("BEGIN");
      try {
        await db.exec(migration.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count")
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await db.query("COMMIT");
      } catch (error) {
        await db.query("ROLLBACK").catch(() => {});
        throw new MigrationFailedError(migration.name, error);
      }
      applied.push(migration.name);
    }
    return { applied, skipped };
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    try {
      await db.query(`SELECT pg_advisory_unlock(${ADVISORY_LOCK_KEY})`);
    } catch (unlockError) {
      // The original error matters more; a lost connection releases the lock anyway.
      if (failure === undefined) throw unlockError;
    }
  }
}
