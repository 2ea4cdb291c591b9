// The app process's jobs: for instrumentation.ts, which hands over the app's pipelines (lib/app/pipelines.ts).
// With Inngest configured, Inngest runs jobs (through app/api/inngest) and only the relay starts here, which hands
// Inngest the jobs the database queued itself (drivers/inngest-relay.ts); otherwise the local runner runs in this
// process.
import { inngestConfigured } from "@/lib/jobs/drivers/inngest-settings";
import { env } from "@/lib/env";
import { ensureLocalRunner, type LocalRunner, type LocalRunnerOptions } from "@/lib/jobs/drivers/local";
import { log } from "@/lib/observability/logger";

/** How long a stopping app process lets running steps finish before aborting them and handing the jobs back. */
const APP_STOP_TIMEOUT_MS = 10_000;

export async function startAppJobs(
  options: Pick<LocalRunnerOptions, "pipelines"> & Partial<LocalRunnerOptions>,
): Promise<LocalRunner | null> {
  if (inngestConfigured()) {
    const { ensureInngestRelay } = await import("@/lib/jobs/drivers/inngest-relay");
    stopOnSignal(await ensureInngestRelay(options.db ? { db: options.db } : {}));
    return null;
  }
  const runner = await ensureLocalRunner({
    concurrency: env().JOB_CONCURRENCY,
    leaseMs: env().JOB_LEASE_MS,
    ...options,
  });
  stopOnSignal(runner);
  return runner;
}

/**
 * SIGTERM / SIGINT: the runner stops claiming at once, lets running steps finish (interruptible ones, such
 * as waiting on a provider, are aborted) and hands its jobs back, so another process resumes them without
 * waiting for the lease to expire. `next start` exits as soon as its HTTP server has closed; that exit is
 * held until the runner has stopped.
 */
function stopOnSignal(runner: Pick<LocalRunner, "stop">): void {
  const state = globalThis as { verbatimStopOnSignal?: boolean };
  if (state.verbatimStopOnSignal) return;
  state.verbatimStopOnSignal = true;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= runner
      .stop({ timeoutMs: APP_STOP_TIMEOUT_MS })
      .catch((error: unknown) => log.error({ err: error }, "job runner stop failed")));
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    if (!stopping) return exit(code);
    void stopping.finally(() => exit(code));
  }) as typeof process.exit;
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
