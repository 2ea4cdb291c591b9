import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import {
  applyMigrations,
  MigrationChecksumError,
  MigrationFailedError,
  pgExecutor,
  pgliteExecutor,
  splitStatements,
} from "@/lib/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/db/pglite-extensions";
import { MIGRATIONS, MIGRATIONS_DIR, useMigrationsDatabase } from "@/test/migrations-db";

// Each model's table: its name, or the name its @@map keeps.
const MODELS = [...readFileSync("prisma/schema.prisma", "utf8").matchAll(/^model (\w+) \{([^}]*)\}/gm)].map(
  (m) => /@@map\("([^"]+)"\)/.exec(m[2]!)?.[1] ?? m[1],
);

describe("applyMigrations on PostgreSQL", () => {
  const { connect, migrationsCopy } = useMigrationsDatabase();

  async function addMigration(dir: string, name: string, sql: string) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  }

  async function tables(client: pg.Client) {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return rows.map((row) => row.table_name);
  }

  async function history(client: pg.Client) {
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name, started_at`,
    );
    return rows;
  }

  it("applies every migration to a fresh database and records it with its checksum", async () => {
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    const client = await connect();
    const lines: string[] = [];

    const result = await applyMigrations(pgExecutor(client), { log: (line) => lines.push(line) });

    expect(result).toEqual({ applied: MIGRATIONS, skipped: [] });
    expect(lines).toEqual(MIGRATIONS.map((name) => `applying ${name}`));
    const present = await tables(client);
    expect(present).toEqual(expect.arrayContaining(["User", "ApiKey", "Job", "_prisma_migrations"]));
    expect(present).toEqual(expect.arrayContaining(MODELS));

    const { rows } = await client.query(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, logs, applied_steps_count, length(id) AS id_length
       FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows).toEqual(
      await Promise.all(
        MIGRATIONS.map(async (name) => ({
          migration_name: name,
          checksum: createHash("sha256")
            .update(await readFile(path.join(MIGRATIONS_DIR, name, "migration.sql")))
            .digest("hex"),
          finished_at: expect.any(Date),
          rolled_back_at: null,
          logs: null,
          applied_steps_count: 1,
          id_length: 36,
        })),
      ),
    );
  });

  it("does nothing on a second run", async () => {
    const client = await connect();
    await applyMigrations(pgExecutor(client));
    const before = await history(client);

    const result = await applyMigrations(pgExecutor(client));

    expect(result).toEqual({ applied: [], skipped: MIGRATIONS });
    expect(await history(client)).toEqual(before);
  });

  it("refuses an applied migration whose file changed, before applying anything", async () => {
    const dir = await migrationsCopy();
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    const before = await history(client);
    const tablesBefore = await tables(client);

    const first = MIGRATIONS[0];
    const file = path.join(dir, first, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\nCREATE TABLE "Tampered" ("id" INTEGER);\n`);
    await addMigration(dir, "99999999999999_pending", `CREATE TABLE "Pending" ("id" INTEGER);`);

    const run = applyMigrations(pgExecutor(client), { dir });
    await expect(run).rejects.toBeInstanceOf(MigrationChecksumError);
    await expect(run).rejects.toThrow(first);
    await expect(run).rejects.toMatchObject({ migrations: [first] });

    expect(await history(client)).toEqual(before);
    expect(await tables(client)).toEqual(tablesBefore);
  });

  it("rolls a failing migration back completely and names it", async () => {
    const dir = await migrationsCopy();
    await addMigration(
      dir,
      "99999999999999_broken",
      `CREATE TABLE "Partial" ("id" INTEGER);
ALTER TABLE "User" ADD COLUMN "partialColumn" TEXT;
INSERT INTO "Partial" VALUES (1);
SELECT * FROM "does_not_exist";
`,
    );
    const client = await connect();

    await expect(applyMigrations(pgExecutor(client), { dir })).rejects.toThrow(/99999999999999_broken/);

    // The good migrations before it stay applied; nothing of the broken one remains.
    expect((await history(client)).map((row) => row.migration_name)).toEqual(MIGRATIONS);
    expect(await tables(client)).not.toContain("Partial");
    const { rows } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'User' AND column_name = 'partialColumn'`,
    );
    expect(rows).toEqual([]);
    // The session is usable and the advisory lock was released.
    const other = await connect();
    const { rows: lock } = await other.query(`SELECT pg_try_advisory_lock(72707369) AS locked`);
    expect(lock).toEqual([{ locked: true }]);
    await other.query(`SELECT pg_advisory_unlock(72707369)`);

    // Once fixed, the same migration applies.
    await writeFile(
      path.join(dir, "99999999999999_broken", "migration.sql"),
      `CREATE TABLE "Partial" ("id" INTEGER);\n`,
    );
    expect(await applyMigrations(pgExecutor(client), { dir })).toEqual({
      applied: ["99999999999999_broken"],
      skipped: MIGRATIONS,
    });
  });

  it("applies each migration once when two runners start together", async () => {
    const [a, b] = await Promise.all([connect(), connect()]);

    const results = await Promise.all([applyMigrations(pgExecutor(a)), applyMigrations(pgExecutor(b))]);

    expect(results.flatMap((result) => result.applied).sort()).toEqual(MIGRATIONS);
    expect(results.map((result) => result.applied.length).sort()).toEqual([0, MIGRATIONS.length]);
    const { rows } = await a.query(
      `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name`,
    );
    expect(rows).toEqual(MIGRATIONS.map((name) => ({ migration_name: name, n: 1 })));
  });

  it("runs a migration marked -- verbatim:no-transaction one statement at a time, outside a transaction", async () => {
    const dir = await migrationsCopy();
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    // Without the marker CREATE INDEX CONCURRENTLY fails (a transaction block), and nothing stays.
    const concurrently = `DROP INDEX CONCURRENTLY IF EXISTS "Job_probe_idx";\nCREATE INDEX CONCURRENTLY "Job_probe_idx" ON "Job"("stage");\n`;
    await addMigration(dir, "29990101000000_in_transaction", concurrently);
    await expect(applyMigrations(pgExecutor(client), { dir })).rejects.toThrow(/transaction block/);
    await rm(path.join(dir, "29990101000000_in_transaction"), { recursive: true });
    // With it: applied, recorded once, the index valid.
    await addMigration(
      dir,
      "29990101000001_concurrently",
      `-- verbatim:no-transaction\n-- A probe index.\n${concurrently}`,
    );
    expect((await applyMigrations(pgExecutor(client), { dir })).applied).toEqual(["29990101000001_concurrently"]);
    const { rows } = await client.query(
      `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'Job_probe_idx'`,
    );
    expect(rows).toEqual([{ indisvalid: true }]);
    expect((await history(client)).filter((row) => row.migration_name === "29990101000001_concurrently")).toHaveLength(
      1,
    );
  });

  it("leaves no row for a no-transaction migration that fails, and runs it again once fixed", async () => {
    const dir = await migrationsCopy();
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    const name = "29990101000002_half_done";
    const index = `DROP INDEX CONCURRENTLY IF EXISTS "Job_probe2_idx";\nCREATE INDEX CONCURRENTLY "Job_probe2_idx" ON "Job"("stage");\n`;
    await addMigration(
      dir,
      name,
      `-- verbatim:no-transaction\n${index}CREATE INDEX CONCURRENTLY "x" ON "NoSuchTable"("id");\n`,
    );
    const error = await applyMigrations(pgExecutor(client), { dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationFailedError);
    expect((error as Error).message).toMatch(/outside a transaction/);
    expect((await history(client)).map((row) => row.migration_name)).not.toContain(name);
    // Fixed by hand (a new checksum is fine: it was never recorded), it runs again from the start.
    await writeFile(path.join(dir, name, "migration.sql"), `-- verbatim:no-transaction\n${index}`);
    expect((await applyMigrations(pgExecutor(client), { dir })).applied).toEqual([name]);
  });
});

describe("applyMigrations on embedded PGlite", () => {
  it("migrates an in-memory database that the generated Prisma client can use", async () => {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    try {
      expect(await applyMigrations(pgliteExecutor(pglite))).toEqual({ applied: MIGRATIONS, skipped: [] });
      expect(await applyMigrations(pgliteExecutor(pglite))).toEqual({ applied: [], skipped: MIGRATIONS });

      const user = await prisma.user.create({
        data: {
          email: "ada@example.com",
          apiKey: { create: { hash: "h".repeat(64), prefix: "vb_live_ab" } },
          jobs: { create: { input: { url: "https://example.com/v" } } },
        },
      });
      const found = await prisma.user.findUniqueOrThrow({
        where: { email: "ada@example.com" },
        include: { apiKey: true, jobs: true },
      });
      expect(found.id).toBe(user.id);
      expect(found.apiKey?.prefix).toBe("vb_live_ab");
      expect(found.jobs).toHaveLength(1);
      expect(found.jobs[0]).toMatchObject({
        status: "queued",
        checkpoints: {},
        input: { url: "https://example.com/v" },
      });
      // The flat-reads migrations on PGlite: pg_trgm and btree_gin, the CONCURRENTLY-built indexes, the triggers.
      const { rows: indexes } = await pglite.query<{ relname: string }>(
        `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indisvalid AND c.relname LIKE 'Transcription_userId_%'`,
      );
      expect(indexes.map((row) => row.relname)).toContain("Transcription_userId_searchText_idx");
      const transcript = await prisma.transcript.create({
        data: {
          platform: "youtube",
          videoId: "abc",
          lang: "en",
          origin: "captions",
          title: "Deep Ocean",
          sourceUrl: "u",
          segments: [],
        },
      });
      await prisma.transcription.create({
        data: {
          userId: user.id,
          platform: "youtube",
          videoId: "abc",
          lang: "en",
          transcriptId: transcript.id,
          state: "done",
        },
      });
      const { rows: matched } = await pglite.query(
        `SELECT "searchText" FROM "Transcription" WHERE "userId" = $1 AND "searchText" LIKE '%ocean%'`,
        [user.id],
      );
      expect(matched).toEqual([{ searchText: "abc\ndeep ocean" }]);
      expect(await prisma.historyCount.findMany({ select: { platform: true, state: true, n: true } })).toEqual([
        { platform: "youtube", state: "done", n: 1 },
      ]);
    } finally {
      await prisma.$disconnect();
      await pglite.close();
    }
  });
});

describe("splitStatements", () => {
  it("splits at a semicolon that ends a line and drops comment lines", () => {
    expect(splitStatements("-- verbatim:no-transaction\n-- why\nDROP INDEX a;\nCREATE INDEX b ON t(x);  \n\n")).toEqual(
      ["DROP INDEX a", "CREATE INDEX b ON t(x)"],
    );
    expect(splitStatements("SELECT 'a;b';\nSELECT 2")).toEqual(["SELECT 'a;b'", "SELECT 2"]);
  });
});
