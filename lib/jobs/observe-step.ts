import { log } from "@/lib/observability/logger";
import { jobStageDuration, jobsFinished } from "@/lib/observability/metrics";

// What both drivers (local runner, Inngest) report about a pipeline step: its duration by stage and
// outcome, and a log line. The caller runs it inside the job's log context (job id, request id).

export async function observeStep<T>(
  pipeline: string,
  stage: string,
  attempt: number,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const output = await run();
    jobStageDuration.observe({ pipeline, stage, outcome: "ok" }, seconds());
    log.info({ pipeline, stage, attempt, ms: Math.round(seconds() * 1000) }, "job step done");
    return output;
  } catch (error) {
    jobStageDuration.observe({ pipeline, stage, outcome: "failed" }, seconds());
    log.warn({ pipeline, stage, attempt, ms: Math.round(seconds() * 1000), err: error }, "job step failed");
    throw error;
  }
}

/** One run of a job ended: done, error, retry, released or lost. */
export function jobRunEnded(pipeline: string, outcome: string): void {
  jobsFinished.inc({ pipeline, outcome });
}
