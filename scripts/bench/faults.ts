// The fault suite's table as figures: runs `npm run test:faults` (needs `npm run build`) with a report file
// and returns, per scenario, what was lost (must be 0) and the seconds to recover. The suite prints the
// full table (what was injected, in words) at its end.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readFaults } from "../../test/faults/report";

export async function benchFaults(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-faults-"));
  const report = path.join(dir, "faults.jsonl");
  try {
    const run = spawnSync("npx", ["vitest", "run", "--config", "vitest.faults.config.ts"], {
      stdio: "inherit",
      env: { ...process.env, FAULTS_REPORT: report },
    });
    if (run.status !== 0) throw new Error(`the fault suite failed (exit ${run.status})`);
    const figures: Record<string, number> = {};
    for (const row of readFaults(report)) {
      const label = `${row.scenario}: ${row.injected}`.slice(0, 70);
      figures[`${label}: lost`] = row.lost;
      figures[`${label}: recovery s`] = row.recoverySeconds;
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
