import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { faultTable, readFaults } from "./report";

// One report file per run (inherited by the test workers), printed as a table at the end.
export default function setup() {
  const owned = !process.env.FAULTS_REPORT;
  const dir = owned ? mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-")) : null;
  process.env.FAULTS_REPORT ??= path.join(dir!, "faults.jsonl");
  const file = process.env.FAULTS_REPORT;
  return () => {
    const rows = readFaults(file);
    if (rows.length > 0) console.log(`\nFault suite: what was injected, what was lost, time to recover\n${faultTable(rows)}\n`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
