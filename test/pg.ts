// A throwaway PostgreSQL database per test file: created on the server at TEST_DATABASE_ADMIN_URL
// (default: local postgres; the integration run's global setup, test/integration-setup.ts, points it at an
// embedded server when none answers there), dropped with FORCE afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";

import { configuredAdminUrl } from "./pg-server";

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = configuredAdminUrl();
  const name = `verbatim_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function withAdmin(adminUrl: string, run: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await run(admin);
  } finally {
    await admin.end();
  }
}

/** A throwaway database with every migration applied. */
export async function createMigratedTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { applyMigrations, pgExecutor } = await import("../lib/db/migrate");
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await applyMigrations(pgExecutor(client));
  } finally {
    await client.end();
  }
  return database;
}
