// The member_usage migrations on databases that already hold a team's entries, on PostgreSQL and on embedded PGlite:
// "MemberUsageHour" counts the entries written before its trigger once, and the trigger the ones after.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { applyMigrations, pgExecutor, pgliteExecutor, type SqlExecutor } from "@/lib/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/db/pglite-extensions";
import { MIGRATIONS, MIGRATIONS_DIR, useMigrationsDatabase } from "@/test/migrations-db";

const LATER = MIGRATIONS.filter((name) => name >= "20261128155307");

async function migrationsBefore(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
  return dir;
}

type Query = (sql: string) => Promise<{ rows: unknown[] }>;

async function entries(query: Query, from: number, to: number) {
  await query(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "state", "totalSeconds", "actorId", "createdAt", "updatedAt")
     SELECT 'h' || i, 'team', 'youtube', 'V' || i, 'en', CASE WHEN i % 4 = 0 THEN 'error' ELSE 'done' END, 10 * i,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'm' || (i % 2) END, timestamp '2026-11-01' + i * interval '37 minutes', now()
     FROM generate_series(${from}, ${to}) AS i`,
  );
}

/** Counters and the entries' own sums, per actor and hour. */
async function compare(query: Query) {
  const counters = await query(
    `SELECT "actorId", "hour", "requests", "seconds" FROM "MemberUsageHour" WHERE "userId" = 'team' ORDER BY 1, 2`,
  );
  const direct = await query(
    `SELECT "actorId", date_trunc('hour', "createdAt") AS "hour", count(*)::int AS "requests", sum("totalSeconds")::int AS "seconds"
     FROM "Transcription" WHERE "userId" = 'team' AND "actorId" IS NOT NULL AND "state" <> 'error' GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return { counters: counters.rows, direct: direct.rows };
}

async function run(executor: SqlExecutor, query: Query, dir: string) {
  await applyMigrations(executor, { dir });
  await query(
    `INSERT INTO "User" ("id", "kind", "updatedAt") VALUES ('team', 'team', now());
     INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('m0', 'm0@example.com', now()), ('m1', 'm1@example.com', now())`,
  );
  await entries(query, 1, 40);
  expect((await applyMigrations(executor)).applied).toEqual(LATER);
  const before = await compare(query);
  expect(before.counters.length).toBeGreaterThan(10);
  expect(before.counters).toEqual(before.direct);
  await entries(query, 41, 60);
  await query(`UPDATE "Transcription" SET "state" = 'error' WHERE "id" IN ('h1', 'h41')`);
  await query(`DELETE FROM "Transcription" WHERE "id" IN ('h2', 'h42')`);
  const after = await compare(query);
  expect(after.counters.filter((row) => (row as { requests: number }).requests !== 0)).toEqual(after.direct);
}

describe("the member_usage migrations", () => {
  const { connect } = useMigrationsDatabase();

  it("count a team's existing entries once on PostgreSQL, and the trigger the later ones", async () => {
    const dir = await migrationsBefore();
    try {
      const client = await connect();
      await run(pgExecutor(client), (sql) => client.query(sql), dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("do the same on embedded PGlite", async () => {
    const dir = await migrationsBefore();
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    try {
      await run(pgliteExecutor(pglite), (sql) => pglite.exec(sql).then((results) => results.at(-1)!), dir);
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
