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
 * The URL of the integration run's migrated template (test/integration-setup.ts): each file's database on that server
 * is then a copy of it (CREATE DATABASE … TEMPLATE, a file copy on the server) instead of every migration run again.
 */
export const TEST_DATABASE_TEMPLATE = "TEST_DATABASE_TEMPLATE";

export async function createTestDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = configuredAdminUrl();
  const name = `verbatim_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, async (admin) => {
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
    // A test's commits need not wait for the disk: a lost commit matters only if the server itself crashes, and
    // then the run is lost anyway. Set on the database, so the machine's own server keeps its settings.
    await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

/** The run's template database on the server at the admin URL, if there is one there. */
function templateHere(): string | undefined {
  const template = process.env[TEST_DATABASE_TEMPLATE];
  if (!template) return undefined;
  const url = new URL(template);
  return url.host === new URL(configuredAdminUrl()).host ? url.pathname.slice(1) : undefined;
}

/** A throwaway database with every migration applied: a copy of the run's template when there is one. */
export async function createMigratedTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = templateHere();
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
