// The fault suite's table: each scenario appends one row (what was injected, what was lost, how long the
// service took to recover) to FAULTS_REPORT; global-setup.ts prints them when the run ends and
// `npm run bench -- faults` returns them as figures. Nothing here is asserted on timings.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export interface FaultRow {
  scenario: string;
  injected: string;
  /** Jobs or requests lost, run twice, double-charged or double-refunded: each must be 0. */
  lost: number;
  /** Seconds from the fault's end until the service answered normally again. */
  recoverySeconds: number;
  note?: string;
}

export function recordFault(row: FaultRow): void {
  const file = process.env.FAULTS_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}

export function readFaults(file: string): FaultRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FaultRow);
}

export function faultTable(rows: FaultRow[]): string {
  const header = ["scenario", "injected", "lost", "recovery s", "note"];
  const cells = rows.map((r) => [r.scenario, r.injected, String(r.lost), r.recoverySeconds.toFixed(2), r.note ?? ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}

/** Waits for `check` to hold, polling; throws with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
