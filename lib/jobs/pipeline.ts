// A job is a pipeline of named steps over a small JSON context. Two drivers run the same steps: the
// local runner (drivers/local.ts, rows in PostgreSQL) and Inngest (drivers/inngest.ts). Both are given
// the app's pipelines by a composition root (lib/app/pipelines.ts); nothing registers itself.
//
// Exactly-once rules for step authors:
// - A step's output is checkpointed when it returns, and a finished step is never run again for that
//   job. A step that is interrupted (crash, lost lease, retry after an error) runs again from its
//   start, so every step must be idempotent: safe to run twice with the same context (use natural
//   keys, upserts, or check-then-act inside a transaction).
// - Effects that must happen exactly once together with the job's outcome (settling usage, a refund)
//   belong in `onSuccess` / `onFailure`: they run inside the transaction that sets the job's final
//   status, through `io.tx`, and only the runner that still owns the job can commit it.
import type { z } from "zod";
import type { Job, Prisma } from "@/lib/generated/prisma/client";
import { isErrorCode, type ErrorCode } from "@/lib/http/error-codes";

/** What a step gets besides the context. */
export interface StepContext {
  jobId: string;
  userId: string;
  /** 1 for the first try of this job, 2 for the first retry, and so on. */
  attempt: number;
  /** Aborted when the runner lost the job (lease taken over) or is shutting down hard: stop soon. */
  signal: AbortSignal;
  /**
   * Records a stage label and the job's overall progress (0..1, never lowered) on the job row. The
   * runner also raises progress to (finished steps / all steps) after each step.
   */
  progress(stage: string, fraction: number): Promise<void>;
}

export interface PipelineStep<C> {
  /** Unique within the pipeline; the checkpoint key and the Inngest step id. Never rename a live step. */
  name: string;
  /** Returns the fields to merge into the context (JSON-serialisable), or nothing. */
  run(ctx: C, io: StepContext): Promise<Partial<C> | void>;
  /**
   * Interrupting it loses nothing (it waits on work that goes on elsewhere, e.g. a provider's transcript
   * by id): a stopping local runner aborts it at once and hands the job back, instead of letting it finish.
   */
  interruptible?: boolean;
}

/** Why a job ended in `error`: stored as the job's errorCode / errorMessage. A code of the closed list. */
export interface JobFailure {
  code: ErrorCode;
  message: string;
}

/** What `onSuccess` / `onFailure` get: the transaction that sets the job's final status. */
export interface FinishIO {
  jobId: string;
  userId: string;
  /** Use this, never the global client, inside the hook (with PGlite the global client would wait on it). */
  tx: Prisma.TransactionClient;
  /** The job row as it was when this run started. */
  job: Job;
}

/** Fields `onSuccess` may set on the finished job. */
export interface JobOutcome {
  transcriptId?: string | null;
  chargedSecs?: number;
}

export interface Pipeline<C> {
  /** Stored in each job's input: never rename a live pipeline. */
  name: string;
  /** The context's shape, checked before each step: a job whose context does not fit fails for good. */
  context: z.ZodType<C>;
  steps: PipelineStep<C>[];
  /** Tries before a retryable failure is final, written to the job row at enqueue. Default 5 (the column's). */
  maxAttempts?: number;
  /** Runs once, in the transaction that marks the job `error` (e.g. refund the reservation). */
  onFailure(ctx: C, failure: JobFailure, io: FinishIO): Promise<void>;
  /** Runs once, in the transaction that marks the job `done` (e.g. settle usage, link the transcript). */
  onSuccess?(ctx: C, io: FinishIO): Promise<JobOutcome | void>;
}

/** `Job.input`: which pipeline, and its starting context. */
export interface JobInput<C = JobContext> {
  pipeline: string;
  context: C;
}

export type JobContext = Record<string, unknown>;

/** `Job.checkpoints`: each finished step's output, by step name. */
export type Checkpoints = Record<string, JobContext>;

// Next.js bundles the app routes and instrumentation.ts separately, so a step may throw a
// PermanentError from another copy of this module: recognise it by a global symbol, not instanceof.
const PERMANENT = Symbol.for("verbatim.jobs.PermanentError");

/**
 * A failure that retrying cannot fix (bad input, source gone, not allowed). The job ends in `error` with `code`,
 * one of the closed list (lib/http/error-codes.ts): its status and retryability are what the API, the CLI's exit
 * code and the client read.
 */
export class PermanentError extends Error {
  readonly [PERMANENT] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PermanentError";
  }
}

/** Any other error is retryable; this one also carries a code of the closed list for the job row. */
export class RetryableError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RetryableError";
  }
}

/** The runner's own failure when a job has used up its attempts without an error to name (e.g. crashes). */
export const ATTEMPTS_EXHAUSTED = "attempts_exhausted" satisfies ErrorCode;

/**
 * A job row's stored errorCode as a code of the closed list: `fallback` when none is stored, `job_failed` for one a
 * version before the list was closed wrote.
 */
export function storedFailureCode(stored: string | null, fallback: ErrorCode): ErrorCode {
  if (stored === null) return fallback;
  return isErrorCode(stored) ? stored : "job_failed";
}

export function isPermanent(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { [PERMANENT]?: unknown })[PERMANENT] === true;
}

/** The code and message stored for an error thrown by a step. */
export function toJobFailure(error: unknown): JobFailure {
  if (error instanceof PermanentError || error instanceof RetryableError)
    return { code: error.code, message: error.message };
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      code: isErrorCode(code) ? code : "job_failed",
      message: error.message || error.name,
    };
  }
  return { code: "job_failed", message: String(error) };
}

/** Names the driver itself uses as Inngest step ids; a pipeline step may not take them. */
export const RESERVED_STEP_NAMES = new Set(["start-job", "finish-job", "fail-job"]);

/** Checks a pipeline's step names; use it to declare every pipeline. */
export function definePipeline<C>(pipeline: Pipeline<C>): Pipeline<C> {
  const names = new Set<string>();
  for (const step of pipeline.steps) {
    if (names.has(step.name)) throw new Error(`Pipeline ${pipeline.name}: step name "${step.name}" is used twice`);
    if (RESERVED_STEP_NAMES.has(step.name))
      throw new Error(`Pipeline ${pipeline.name}: step name "${step.name}" is reserved`);
    names.add(step.name);
  }
  return pipeline;
}

/** A pipeline of any context, as drivers hold them (each is typed where it is declared). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPipeline = Pipeline<any>;

/** The pipelines a driver runs, by name. */
export type Pipelines = ReadonlyMap<string, AnyPipeline>;

export function pipelinesByName(pipelines: readonly AnyPipeline[]): Pipelines {
  const byName = new Map<string, AnyPipeline>();
  for (const pipeline of pipelines) {
    if (byName.has(pipeline.name)) throw new Error(`Two pipelines are named "${pipeline.name}"`);
    byName.set(pipeline.name, pipeline);
  }
  return byName;
}

export function findPipeline<C = JobContext>(pipelines: Pipelines, name: string): Pipeline<C> | undefined {
  return pipelines.get(name) as unknown as Pipeline<C> | undefined;
}

/**
 * The context a step is about to get, checked against the pipeline's schema (a bad one can never work).
 * The context itself is passed on unchanged: a schema that strips unknown keys must not drop step outputs.
 */
export function checkedContext<C>(pipeline: Pipeline<C>, ctx: C): C {
  const parsed = pipeline.context.safeParse(ctx);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(context)"}: ${issue.message}`)
      .join("; ");
    throw new PermanentError(
      "invalid_job_context",
      `The job's context does not fit pipeline "${pipeline.name}": ${issues}`,
    );
  }
  return ctx;
}

/** The job's input, checked for shape. */
export function jobInput(job: Pick<Job, "id" | "input">): JobInput {
  const input = job.input as unknown;
  if (!isObject(input) || typeof input.pipeline !== "string" || !isObject(input.context)) {
    throw new PermanentError("invalid_job", `Job ${job.id} has no valid input ({ pipeline, context })`);
  }
  return { pipeline: input.pipeline, context: input.context };
}

export function jobCheckpoints(job: Pick<Job, "checkpoints">): Checkpoints {
  const value = job.checkpoints as unknown;
  return isObject(value) ? (value as Checkpoints) : {};
}

/** The starting context with every checkpointed step's output merged in, in pipeline order. */
export function currentContext<C>(pipeline: Pipeline<C>, job: Pick<Job, "id" | "input" | "checkpoints">): C {
  const checkpoints = jobCheckpoints(job);
  let ctx = { ...jobInput(job).context } as C;
  for (const step of pipeline.steps) {
    const output = checkpoints[step.name];
    if (output !== undefined) ctx = { ...ctx, ...(output as Partial<C>) };
  }
  return ctx;
}

/** A step's output as stored: a plain JSON object ({} for nothing). */
export function checkpointValue(output: unknown): JobContext {
  if (output === undefined || output === null) return {};
  if (!isObject(output))
    throw new PermanentError("invalid_step_output", "A pipeline step must return an object or nothing");
  return JSON.parse(JSON.stringify(output)) as JobContext;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
