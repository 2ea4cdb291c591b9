// The setup checks' last results, kept for /health and the dashboard, which only read them. Apart from the
// probes (run-setup-checks.ts): those pull in youtubei.js, Stripe and nodemailer, a long module load on a
// small machine, which /health must not wait for on the first answer after a start. The
// probes are loaded when a refresh first runs (after that answer has been sent).
import type { SetupLine } from "@/lib/health/setup-checks";

/** How long a result is served before a request starts a refresh (in the background). */
const FRESH_MS = 5 * 60_000;

let last: { at: number; lines: SetupLine[] } | null = null;
let running: Promise<void> | null = null;

/** The last results: null before the first refresh has ended. */
export function lastSetupChecks(): SetupLine[] | null {
  return last?.lines ?? null;
}

/** True when there are no results yet or they are older than FRESH_MS, and no refresh is under way. */
export function setupChecksDue(now = Date.now()): boolean {
  return !running && (!last || now - last.at > FRESH_MS);
}

/** Runs the checks once (a second call while one runs joins it) and keeps the results. */
export function refreshSetupChecks(): Promise<void> {
  running ??= import("@/lib/health/run-setup-checks")
    .then(({ runSetupChecks }) => runSetupChecks())
    .then((lines) => {
      last = { at: Date.now(), lines };
    })
    .catch(() => undefined)
    .finally(() => {
      running = null;
    });
  return running;
}

/**
 * For the dashboard's "What works on this server": the failing lines of the last results, or null while the
 * first round is still running (the panel then shows "checking…" rows). Starts a refresh in the background
 * when the results are stale or missing (the start runs the first round itself, instrumentation.ts). Never
 * waits.
 */
export function setupProblemsNow(): SetupLine[] | null {
  if (setupChecksDue()) void refreshSetupChecks();
  const lines = lastSetupChecks();
  return lines ? lines.filter((line) => line.ok === false) : null;
}
