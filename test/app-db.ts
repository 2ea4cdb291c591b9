import type { LocalRunnerOptions } from "@/lib/jobs/drivers/local";
import { createMigratedTestDatabase } from "./pg";

/**
 * A migrated PostgreSQL database of its own for one test file, wired into lib/env and lib/db.
 * Call before the first use of the app's modules; call `teardown` in afterAll.
 */
export async function useTestDatabase() {
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "integration-tests-secret-integration-tests";
  const { getDb } = await import("@/lib/db/client");
  const db = await getDb();
  return {
    url: database.url,
    db,
    async teardown() {
      await db.$disconnect();
      delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
      await database.drop();
    },
  };
}

/**
 * useTestDatabase with the local runner running the app's pipelines on it, quietly (`runner`: startLocalRunner's
 * options; a poll every 250 ms unless it says otherwise). `stop` stops the runner, then drops the database.
 */
export async function useTestRunner(runner: Omit<LocalRunnerOptions, "pipelines"> = {}) {
  const ctx = await useTestDatabase();
  const { appPipelines } = await import("@/lib/app/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
  const started = await startLocalRunner({ pipelines: appPipelines, pollMs: 250, log: () => undefined, ...runner });
  return {
    ...ctx,
    async stop() {
      await started.stop();
      await ctx.teardown();
    },
  };
}

let counter = 0;

/** A user with a random email (tests never depend on each other's rows). */
export async function createUser(db: Awaited<ReturnType<typeof useTestDatabase>>["db"]) {
  counter += 1;
  const email = `user-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  return db.user.create({ data: { email, name: email.split("@")[0] } });
}

/** A new user with an API key: its id and the headers that authenticate as it. */
export async function createCaller(db: Awaited<ReturnType<typeof useTestDatabase>>["db"]) {
  const user = await createUser(db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  return { userId: user.id, headers: { authorization: `Bearer ${key!}` } };
}
