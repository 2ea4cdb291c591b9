// The Inngest driver: one function runs any of the pipelines it is given. Each pipeline step runs inside
// `step.run(stepName)`, so Inngest memoizes its output and retries it on its own; the job row is kept
// up to date (status, checkpoints, progress) for the API to read. onSuccess / onFailure run in the
// transaction that sets the final status, guarded by status so a retried "finish-job" or a repeated
// failure handler cannot apply them twice.
import { NonRetriableError, type Inngest } from "inngest";
import { JOB_REQUESTED, type JobRequestedData } from "@/lib/jobs/drivers/inngest-client";
import {
  checkedContext,
  checkpointValue,
  currentContext,
  findPipeline,
  isPermanent,
  jobCheckpoints,
  jobInput,
  storedFailureCode,
  toJobFailure,
  type JobContext,
  type JobFailure,
  type Pipeline,
  type Pipelines,
  type StepContext,
} from "@/lib/jobs/pipeline";
import type { Db } from "@/lib/db/client";
import { completeJob, failJob, markStarted, recordError, saveCheckpoint, saveProgress } from "@/lib/jobs/store";
import { jobRunEnded, observeStep } from "@/lib/jobs/observe-step";
import { withLogContext } from "@/lib/observability/request-context";
import { reportFailure } from "@/lib/observability/failure-cause";

/** Retries per step after the first try: 5 tries in all, like the local runner's default maxAttempts. */
export const RUN_PIPELINE_RETRIES = 4;
/** Jobs of one user running at once. */
export const PER_USER_CONCURRENCY = 2;

export interface RunPipelineDeps {
  /** The pipelines it runs (the app's: lib/app/pipelines.ts). */
  pipelines: Pipelines;
  /** Default: the app's client. */
  db?: () => Promise<Db>;
  /**
   * The steps' signal: when it aborts, a running step is stopped (a recogniser's child killed) and fails
   * retryably. Inngest cannot cancel a step it has started; without this, nothing does.
   */
  signal?: AbortSignal;
}

async function appDb(): Promise<Db> {
  const { getDb } = await import("@/lib/db/client");
  return getDb();
}

type StartResult =
  | { run: false; status: string }
  | { run: true; pipeline: string; context: JobContext; done: string[] };

/** Marks the job running and returns what the steps need, or why there is nothing to run. */
export async function startPipelineJob(
  db: Db,
  pipelines: Pipelines,
  jobId: string,
  attempt: number,
): Promise<StartResult> {
  const job = await markStarted(db, jobId, attempt);
  if (!job) {
    const existing = await db.job.findUnique({ where: { id: jobId }, select: { status: true } });
    // Not there (yet): the enqueuing transaction may not have committed. Inngest retries.
    if (!existing) throw new Error(`Job ${jobId} not found`);
    return { run: false, status: existing.status };
  }
  const input = jobInput(job);
  const pipeline = findPipeline(pipelines, input.pipeline);
  // Retryable: the process serving Inngest may be one deploy behind.
  if (!pipeline) throw new Error(`No pipeline named "${input.pipeline}" is known here`);
  return {
    run: true,
    pipeline: pipeline.name,
    context: currentContext(pipeline, job),
    done: Object.keys(jobCheckpoints(job)),
  };
}

/** Ends the job in `error` and runs the pipeline's onFailure, once (a finished job is left alone). */
export async function failPipelineJob(
  db: Db,
  pipelines: Pipelines,
  jobId: string,
  error: unknown,
): Promise<{ failed: boolean; failure?: JobFailure }> {
  const job = await db.job.findUnique({ where: { id: jobId } });
  if (!job || job.status === "done" || job.status === "error") return { failed: false };
  const cause = toJobFailure(error);
  // The step that failed recorded its own code and message; Inngest's error only has the message.
  const failure: JobFailure = job.errorCode
    ? { code: storedFailureCode(job.errorCode, cause.code), message: job.errorMessage ?? cause.message }
    : { code: cause.code, message: cause.message };
  let pipeline: Pipeline<JobContext> | undefined;
  try {
    pipeline = findPipeline(pipelines, jobInput(job).pipeline);
  } catch {
    pipeline = undefined;
  }
  const hook = pipeline
    ? (io: Parameters<Pipeline<JobContext>["onFailure"]>[2]) =>
        pipeline.onFailure(currentContext(pipeline, job), failure, io)
    : undefined;
  const failed = await failJob(db, job, null, failure, hook);
  if (failed) jobRunEnded(pipeline?.name ?? "unknown", "error");
  return { failed, failure };
}

export function createRunPipelineFunction(client: Inngest, deps: RunPipelineDeps) {
  const { pipelines } = deps;
  const getDb = deps.db ?? appDb;
  const stepSignal = deps.signal ?? new AbortController().signal;
  return client.createFunction(
    {
      id: "run-pipeline",
      name: "Run a job's pipeline",
      triggers: [{ event: JOB_REQUESTED }],
      concurrency: { key: "event.data.userId", limit: PER_USER_CONCURRENCY },
      retries: RUN_PIPELINE_RETRIES,
      onFailure: async ({ event, error, step }) => {
        const { jobId, requestId } = event.data.event.data as JobRequestedData;
        return step.run("fail-job", () =>
          withLogContext({ jobId, ...(requestId ? { requestId } : {}) }, async () =>
            failPipelineJob(await getDb(), pipelines, jobId, error),
          ),
        );
      },
    },
    async ({ event, step, attempt }) => {
      const { jobId, requestId } = event.data as JobRequestedData;
      // Each step's lines carry the job id and the id of the request that enqueued it.
      const inJobContext = <T>(work: () => Promise<T>) =>
        withLogContext({ jobId, ...(requestId ? { requestId } : {}) }, work);
      const start = await step.run("start-job", () =>
        inJobContext(async () => startPipelineJob(await getDb(), pipelines, jobId, attempt + 1)),
      );
      if (!start.run) return { jobId, skipped: start.status };

      const pipeline = findPipeline<JobContext>(pipelines, start.pipeline);
      if (!pipeline) throw new Error(`No pipeline named "${start.pipeline}" is known here`);
      let ctx = start.context as JobContext;
      const steps = pipeline.steps;
      for (let i = 0; i < steps.length; i++) {
        const current = steps[i]!;
        if (start.done.includes(current.name)) continue;
        const input = ctx;
        const output = await step.run(current.name, () =>
          inJobContext(async () => {
            const db = await getDb();
            const io: StepContext = {
              jobId,
              userId: (event.data as JobRequestedData).userId,
              attempt: attempt + 1,
              signal: stepSignal,
              progress: async (stage, fraction) => {
                await saveProgress(db, jobId, null, stage, fraction);
              },
            };
            try {
              const value = checkpointValue(
                await observeStep(pipeline.name, current.name, attempt + 1, () =>
                  current.run(checkedContext(pipeline, input), io),
                ),
              );
              await saveCheckpoint(
                db,
                jobId,
                null,
                current.name,
                value,
                (i + 1) / steps.length,
                steps[i + 1]?.name ?? null,
              );
              return value;
            } catch (error) {
              const failure = toJobFailure(error);
              reportFailure("job", failure.code, error, { jobId, step: current.name });
              await recordError(db, jobId, failure).catch(() => {});
              if (isPermanent(error)) throw new NonRetriableError((error as Error).message, { cause: error });
              throw error;
            }
          }),
        );
        ctx = { ...ctx, ...(output as JobContext) };
      }

      const finalCtx = ctx;
      const finished = await step.run("finish-job", () =>
        inJobContext(async () => {
          const db = await getDb();
          const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
          const onSuccess = pipeline.onSuccess;
          const done = await completeJob(db, job, null, onSuccess ? (io) => onSuccess(finalCtx, io) : undefined);
          if (done) jobRunEnded(pipeline.name, "done");
          return done;
        }),
      );
      return { jobId, finished };
    },
  );
}
