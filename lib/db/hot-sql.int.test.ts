import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";

// The statements that skip the ORM (lib/db/hot-sql.ts) read what Prisma reads, and are prepared. On the
// embedded database they take the same pool: lib/db/embedded-server.int.test.ts.

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
