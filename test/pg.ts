// A throwaway PostgreSQL database per test file: created on the server at TEST_DATABASE_ADMIN_URL
// (default: local postgres; the integration run's global setup, test/integration-setup.ts, points it at an
// embedded server when none answers there), dropped with FORCE afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";

import { configuredAdminUrl } from "./pg-server";

async function withAdmin(adminUrl: string, run: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await run(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Where the integration run keeps its migrated template (test/integration-setup.ts): each file's database is then a
 * copy of it (CREATE DATABASE … TEMPLATE, a file copy on the server) instead of every migration run again.
 */
export const TEST_DATABASE_TEMPLATE = "TEST_DATABASE_TEMPLATE";

export async function createTestDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = configuredAdminUrl();
  const name = `verbatim_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) =>
    admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

/** A throwaway database with every migration applied: a copy of the run's template when there is one. */
export async function createMigratedTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = process.env[TEST_DATABASE_TEMPLATE];
  if (template) return createTestDatabase(template);
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
