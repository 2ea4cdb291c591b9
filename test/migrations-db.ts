// For tests of the migrations: a fresh PostgreSQL database per test, its clients, and copies of
// prisma/migrations that a test may edit, all removed after the test.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach } from "vitest";
import { createTestDatabase } from "@/test/pg";

export const MIGRATIONS_DIR = path.resolve("prisma/migrations");
export const MIGRATIONS = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Call in a describe: each of its tests gets an empty database; `connect` and `migrationsCopy` are cleaned up. */
export function useMigrationsDatabase() {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clients: pg.Client[] = [];
  const tempDirs: string[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})));
    await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    await database.drop();
  });

  return {
    async connect() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      clients.push(client);
      return client;
    },
    /** A copy of prisma/migrations that a test may edit. */
    async migrationsCopy() {
      const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
      tempDirs.push(dir);
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      return dir;
    },
  };
}
