import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedDatabase, writeSnapshot } from "@/lib/db/embedded";
import { MigrationChecksumError } from "@/lib/db/migrate";
import { notPrivate } from "@/test/file-modes";

const MIGRATIONS_DIR = path.resolve("prisma/migrations");
/** A guard against a hang, not a timing: each test runs every migration on PGlite, over 200 s beside the other suites. */
const MIGRATING_TEST_MS = 10 * 60_000;

/** Everything a migration defines, in a comparable form: columns, indexes, constraints, enums, history, rows. */
async function schemaOf(pglite: PGlite) {
  const rows = async (sql: string) => (await pglite.query(sql)).rows;
  const tables = (await rows(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)) as {
    tablename: string;
  }[];
  const counts: Record<string, unknown> = {};
  for (const { tablename } of tables)
    counts[tablename] = (await rows(`SELECT count(*)::int AS n FROM "${tablename}"`))[0];
  return {
    columns: await rows(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, ordinal_position
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
    ),
    indexes: await rows(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
    constraints: await rows(
      `SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    ),
    enums: await rows(
      `SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid ORDER BY 1, e.enumsortorder`,
    ),
    history: await rows(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" ORDER BY 1`,
    ),
    counts,
  };
}

describe("the embedded database at start", () => {
  let root: string;
  let snapshotDir: string;
  const open: PGlite[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "verbatim-embedded-"));
    snapshotDir = path.join(root, "snapshot");
    await writeSnapshot(snapshotDir);
  }, MIGRATING_TEST_MS);

  afterAll(async () => {
    await Promise.all(open.splice(0).map((pglite) => pglite.close().catch(() => {})));
    await rm(root, { recursive: true, force: true });
  });

  async function start(dir: string, opts: Parameters<typeof openEmbeddedDatabase>[1] = {}) {
    const opened = await openEmbeddedDatabase(path.join(root, dir), { snapshotDir, ...opts });
    open.push(opened.pglite);
    return opened;
  }

  async function stop(opened: { pglite: PGlite }) {
    open.splice(open.indexOf(opened.pglite), 1);
    await opened.pglite.close();
  }

  it(
    "restores a fresh folder from the build's snapshot, with the schema that initdb and every migration give",
    async () => {
      expect(await readdir(snapshotDir)).toEqual([expect.stringMatching(/^pglite-[0-9a-f]{32}$/)]);
      const restored = await start("restored");
      const created = await start("created", { snapshotDir: path.join(root, "no-snapshot-here") });

      expect(restored.start).toBe("restored from snapshot");
      expect(created.start).toBe("created and migrated");
      expect(created.applied.length).toBeGreaterThan(0);
      const schema = await schemaOf(restored.pglite);
      expect(schema.history).toHaveLength(created.applied.length);
      expect(schema).toEqual(await schemaOf(created.pglite));
      // The snapshot, and each database made from it or without it, are this user's alone.
      expect(notPrivate(snapshotDir)).toEqual([]);
      expect(notPrivate(path.join(root, "restored"))).toEqual([]);
      expect(notPrivate(path.join(root, "created"))).toEqual([]);
    },
    MIGRATING_TEST_MS,
  );

  it(
    "restores into an empty folder, past a copy that an earlier start left half-done",
    async () => {
      await mkdir(path.join(root, "empty"));
      await mkdir(path.join(root, "empty.restoring", "base"), { recursive: true });
      const opened = await start("empty");
      expect(opened.start).toBe("restored from snapshot");
      expect(existsSync(path.join(root, "empty.restoring"))).toBe(false);
      expect((await opened.pglite.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`)).rows).toEqual([
        { n: (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).length },
      ]);
      await stop(opened);
    },
    MIGRATING_TEST_MS,
  );

  it(
    "migrates an existing folder whose migrations are behind, and skips the check once they are not",
    async () => {
      const migrations = path.join(root, "migrations");
      await cp(MIGRATIONS_DIR, migrations, { recursive: true });
      // Same files as the snapshot's: restored from it.
      const first = await start("behind", { migrationsDir: migrations });
      expect(first.start).toBe("restored from snapshot");
      await stop(first);

      await mkdir(path.join(migrations, "99999999999999_pending"));
      await writeFile(
        path.join(migrations, "99999999999999_pending", "migration.sql"),
        `CREATE TABLE "Pending" ("id" INTEGER);`,
      );
      const second = await start("behind", { migrationsDir: migrations });
      expect(second).toMatchObject({ start: "migrated", applied: ["99999999999999_pending"] });
      expect((await second.pglite.query(`SELECT count(*)::int AS n FROM "Pending"`)).rows).toEqual([{ n: 0 }]);
      await stop(second);

      const third = await start("behind", { migrationsDir: migrations });
      expect(third).toMatchObject({ start: "already migrated", applied: [] });
      await stop(third);

      // An edited migration changes the fingerprint: the check runs again and refuses, as it always did.
      await writeFile(
        path.join(migrations, "99999999999999_pending", "migration.sql"),
        `CREATE TABLE "Pending" ("id" BIGINT);`,
      );
      await expect(start("behind", { migrationsDir: migrations })).rejects.toBeInstanceOf(MigrationChecksumError);
    },
    MIGRATING_TEST_MS,
  );
});
