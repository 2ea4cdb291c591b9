import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations, pgliteExecutor } from "@/lib/db/migrate";
import { createUser, useTestDatabase } from "@/test/app-db";
import { PGLITE_EXTENSIONS } from "@/lib/db/pglite-extensions";

// The statements that skip the ORM (lib/db/hot-sql.ts) read what Prisma reads, and are prepared.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.teardown());

/** Runs `read` with the process in another time zone than UTC. */
async function inNewYork<T>(read: () => Promise<T>): Promise<T> {
  const zone = process.env.TZ;
  process.env.TZ = "America/New_York";
  try {
    return await read();
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
}

describe("hot statements", () => {
  it("read timestamps as Prisma stored them (UTC) whatever the process's time zone, and are prepared on the connection", async () => {
    const { hotQuery } = await import("@/lib/db/hot-sql");
    const { pgPool } = await import("@/lib/db/client");
    const user = await createUser(database.db);
    const createdAt = new Date("2026-01-02T03:04:05.678Z");
    await database.db.apiKey.create({
      data: { userId: user.id, hash: `hash-${user.id}`, prefix: "vbt_test", createdAt },
    });
    await inNewYork(async () => {
      for (let i = 0; i < 2; i++) {
        const rows = await hotQuery<{ userId: string; createdAt: Date; lastUsedAt: Date | null }>(
          "test-api-key",
          `SELECT "userId", "createdAt", "lastUsedAt" FROM "ApiKey" WHERE "hash" = $1`,
          [`hash-${user.id}`],
        );
        expect(rows).toEqual([{ userId: user.id, createdAt, lastUsedAt: null }]);
      }
    });
    // One query at a time: the pool hands out the connection just released, where the statement lives.
    const { rows } = await (await pgPool())!.query<{ name: string }>("SELECT name FROM pg_prepared_statements");
    expect(rows.map((row) => row.name)).toContain("test-api-key");
  });
});

describe("hot statements on the embedded database", () => {
  it("go to PGlite itself, read what Prisma reads (UTC timestamps, JSON, enums), and wait for Prisma's transaction", async () => {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    await applyMigrations(pgliteExecutor(pglite));
    const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    const globals = globalThis as { verbatimDb?: unknown };
    const installed = globals.verbatimDb;
    globals.verbatimDb = Promise.resolve({ client: db, kind: "pglite", pglite });
    try {
      const { hotQuery } = await import("@/lib/db/hot-sql");
      const fetchedAt = new Date("2026-01-02T03:04:05.678Z");
      const stored = await db.transcript.create({
        data: {
          platform: "youtube",
          videoId: "hot-sql-test",
          lang: "en",
          origin: "captions",
          sourceUrl: "https://www.youtube.com/watch?v=hot-sql-test",
          segments: [{ start: 0, end: 1.5, text: "hello" }],
          durationSeconds: 2,
          fetchedAt,
        },
      });
      const read = () =>
        hotQuery<{ id: string; origin: string; segments: unknown; fetchedAt: Date; durationSeconds: number }>(
          "test-transcript",
          `SELECT "id", "source" AS "origin", "segments", "fetchedAt", "durationSeconds" FROM "Transcript" WHERE "videoId" = $1`,
          ["hot-sql-test"],
        );
      const expected = {
        id: stored.id,
        origin: "captions",
        segments: [{ start: 0, end: 1.5, text: "hello" }],
        fetchedAt,
        durationSeconds: 2,
      };
      expect(await inNewYork(read)).toEqual([expected]);

      // PGlite has one session: a hot statement sent during a Prisma transaction runs after it, never inside it.
      let readDuringTransaction: Promise<unknown[]> | undefined;
      await expect(
        db.$transaction(async (tx) => {
          await tx.transcript.update({ where: { id: stored.id }, data: { durationSeconds: 99 } });
          readDuringTransaction = read();
          await new Promise((resolve) => setTimeout(resolve, 50));
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await readDuringTransaction).toEqual([expected]);
    } finally {
      globals.verbatimDb = installed;
      await db.$disconnect();
      await pglite.close();
    }
  });
});
