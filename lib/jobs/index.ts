// Durable jobs: pipelines of named steps, run by the local runner or by Inngest. See pipeline.ts for
// the rules steps must follow (idempotent steps; exactly-once effects in onSuccess / onFailure).
export {
  ATTEMPTS_EXHAUSTED,
  PermanentError,
  RetryableError,
  currentContext,
  getPipeline,
  registerPipeline,
  unregisterPipeline,
  type FinishIO,
  type JobContext,
  type JobFailure,
  type JobInput,
  type JobOutcome,
  type Pipeline,
  type PipelineStep,
  type StepContext,
} from "@/lib/jobs/pipeline";
export { enqueueJob, type EnqueueJobInput } from "@/lib/jobs/enqueue";
export {
  backoffDelay,
  ensureLocalRunner,
  startLocalRunner,
  stopLocalRunner,
  type BackoffOptions,
  type LocalRunner,
  type LocalRunnerOptions,
  type SettledEvent,
} from "@/lib/jobs/local-runner";
export { completeJob, failJob, LeaseLostError, type Lease } from "@/lib/jobs/store";
export { startAppJobs } from "@/lib/jobs/start";
export { JOBS_CHANNEL, onJobsAvailable, signalJobsAvailable } from "@/lib/jobs/signal";
