import { getDb, dbKind } from "@/lib/db/client";
import { log } from "@/lib/observability/logger";

const DATABASE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

async function checkDatabase(): Promise<{ state: "ok" | "down"; kind: string }> {
  try {
    const kind = await withTimeout(dbKind(), DATABASE_TIMEOUT_MS);
    const db = await getDb();
    await withTimeout(db.$queryRaw`SELECT 1`, DATABASE_TIMEOUT_MS);
    return { state: "ok", kind };
  } catch (error) {
    log.error({ err: error instanceof Error ? error.message : String(error) }, "health: database check failed");
    return { state: "down", kind: "unknown" };
  }
}

/** Strings only, as the contract says; never throws. */
export async function checkHealth(): Promise<Record<string, string>> {
  const database = await checkDatabase();
  return {
    status: database.state === "ok" ? "ok" : "degraded",
    database: database.state,
    database_kind: database.kind,
    version: "0.1.0",
  };
}
