// How a new job reaches an idle runner at once: `NOTIFY verbatim_jobs` for runners in other processes
// (PostgreSQL delivers it when the enqueuing transaction commits), and this in-process emitter for
// runners in the same process (the only way with PGlite, which has no second connection to LISTEN on).
import { EventEmitter } from "node:events";

export const JOBS_CHANNEL = "verbatim_jobs";

// On globalThis so that every copy of this module in a process (Next.js bundles, dev reloads) shares it.
const holder = globalThis as { verbatimJobSignal?: EventEmitter };
const emitter = (holder.verbatimJobSignal ??= Object.assign(new EventEmitter(), { name: "verbatim-jobs" }));
emitter.setMaxListeners(0);

/** Wakes every runner in this process. */
export function signalJobsAvailable(jobId?: string): void {
  emitter.emit("job", jobId);
}

/** Calls `listener` whenever a job is enqueued in this process; returns the unsubscribe function. */
export function onJobsAvailable(listener: (jobId?: string) => void): () => void {
  emitter.on("job", listener);
  return () => emitter.off("job", listener);
}
