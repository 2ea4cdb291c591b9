import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureTestPostgres } from "../pg-server";
import { provideTestRedis } from "../redis-server";
import { faultTable, readFaults } from "./report";

// The PostgreSQL server and the Redis the fault tests use (found or started, as for the integration suite),
// and one report file per run (inherited by the test workers), printed as a table at the end.
export default async function setup() {
  const postgres = await ensureTestPostgres();
  process.env.TEST_DATABASE_ADMIN_URL = postgres.adminUrl;
  const redis = await provideTestRedis();
  const owned = !process.env.FAULTS_REPORT;
  const dir = owned ? mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-")) : null;
  process.env.FAULTS_REPORT ??= path.join(dir!, "faults.jsonl");
  const file = process.env.FAULTS_REPORT;
  return async () => {
    const rows = readFaults(file);
    if (rows.length > 0)
      console.log(`\nFault suite: what was injected, what was lost, time to recover\n${faultTable(rows)}\n`);
    if (dir) rmSync(dir, { recursive: true, force: true });
    await redis.stop?.();
    await postgres.stop?.();
  };
}
