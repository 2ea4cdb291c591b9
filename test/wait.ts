// Waits in tests: each one names what it waits for and gives up at a deadline with that name and the last thing it
// saw, so a test that cannot go on fails at once with a reason instead of running into vitest's timeout. The
// deadlines are guards against a hang (as long as a loaded 2-core CI machine needs), not timings.
import { setTimeout as sleep } from "node:timers/promises";

/**
 * How long a wait lasts by default: the longest a step of an integration test takes on a loaded machine (CI's, with
 * the build and the browser's suites beside it: a first embedded-database process once took over a minute to serve).
 */
export const WAIT_TIMEOUT_MS = 120_000;

export interface WaitOptions {
  /** Give up after this long. Default WAIT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Ask again after this long when no wake-up came first. Default 25 ms. */
  everyMs?: number;
  /**
   * An event that makes the next probe come at once (a job settled, a request arrived): `subscribe(wake)` returns
   * the unsubscribe function.
   */
  wakeOn?: (wake: () => void) => () => void;
  /** What the failure message shows, read at the deadline (e.g. the row the wait is about). Default: the last value. */
  state?: () => Promise<unknown> | unknown;
}

export class WaitTimeout extends Error {
  constructor(what: string, timeoutMs: number, last: string) {
    super(`Timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${last}`);
    this.name = "WaitTimeout";
  }
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Probes until `probe` returns something other than false, null or undefined, and returns it. `what` completes the
 * sentence "waiting for …" (e.g. "job abc to be done or failed").
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = WAIT_TIMEOUT_MS, everyMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: T | false | null | undefined;
  let woken: (() => void) | undefined;
  const unsubscribe = options.wakeOn?.(() => woken?.());
  try {
    for (;;) {
      last = await probe();
      if (last !== false && last !== null && last !== undefined) return last;
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeout(what, timeoutMs, show(options.state ? await options.state() : last));
      const controller = new AbortController();
      await Promise.race([
        sleep(Math.min(everyMs, left), undefined, { signal: controller.signal }).catch(() => undefined),
        new Promise<void>((resolve) => (woken = resolve)),
      ]);
      controller.abort();
      woken = undefined;
    }
  } finally {
    unsubscribe?.();
  }
}

/** `promise`, or a WaitTimeout naming `what` (and `state()`, read at the deadline) if it has not settled by then. */
export async function withDeadline<T>(
  what: string,
  promise: Promise<T>,
  { timeoutMs = WAIT_TIMEOUT_MS, state }: { timeoutMs?: number; state?: () => Promise<unknown> | unknown } = {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void Promise.resolve()
        .then(() => state?.())
        .then(
          (seen) => reject(new WaitTimeout(what, timeoutMs, state ? show(seen) : "nothing (it never settled)")),
          (error: unknown) =>
            reject(new WaitTimeout(what, timeoutMs, `(its state could not be read: ${String(error)})`)),
        );
    }, timeoutMs);
  });
  // The promise may settle while the state is being read: the deadline's late rejection is then nobody's.
  expired.catch(() => undefined);
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
