// The local driver: jobs are rows in PostgreSQL (or PGlite), claimed one at a time with
// `FOR UPDATE SKIP LOCKED` under a lease (see store.ts), each step's output checkpointed on the row.
//
// - Wake-ups (the lease loop, lease-loop.ts, shared with webhook deliveries): `LISTEN verbatim_jobs` on a
//   dedicated `pg` connection (PostgreSQL) and the in-process signal (always; the only one with PGlite). A
//   timer for the next retry or lease expiry, and a slow poll as a safety net, cover anything missed.
// - Crashes: a dead runner's lease expires; the next claim takes the job over and resumes after its
//   last checkpoint. A running job's lease is renewed by a heartbeat while its step runs.
// - Failures: retryable errors go back to the queue with exponential backoff until `maxAttempts`;
//   then, or at once for a PermanentError, the job ends in `error` and the pipeline's onFailure runs
//   in that same transaction. Success marks `done` and runs onSuccess in that same transaction.
// - `stop()`: no new claims; running jobs finish their current step (an `interruptible` step, one that
//   only waits, is aborted at once) and are released (queued again, the interrupted attempt not
//   counted) so another runner resumes them.
//
// What is the jobs' own lives here: running a claimed job's steps under its lease (heartbeat, checkpoints,
// retries, aborting at stop); when to claim and the hand-back are the lease loop's, the row operations store.ts's.
import { reportFailure } from "@/lib/observability/failure-cause";
import type { Job } from "@/lib/generated/prisma/client";
import {
  ATTEMPTS_EXHAUSTED,
  checkedContext,
  checkpointValue,
  currentContext,
  findPipeline,
  isPermanent,
  RetryableError,
  jobCheckpoints,
  jobInput,
  storedFailureCode,
  toJobFailure,
  type JobFailure,
  type Pipeline,
  type Pipelines,
  type StepContext,
} from "@/lib/jobs/pipeline";
import { JOBS_CHANNEL, onJobsAvailable } from "@/lib/jobs/signal";
import { createLeaseLoop, defaultOwner, describe, type LeaseLoop } from "@/lib/jobs/lease-loop";
import { jobRunEnded, observeStep } from "@/lib/jobs/observe-step";
import { log as logger } from "@/lib/observability/logger";
import { withLogContext } from "@/lib/observability/request-context";
import type { Db } from "@/lib/db/client";
import {
  claimJob,
  databaseNowMs,
  completeJob,
  failJob,
  msUntilNextDue,
  releaseJob,
  releaseOwner,
  renewLease,
  saveCheckpoint,
  saveProgress,
  scheduleRetry,
  type Lease,
} from "@/lib/jobs/store";

export interface BackoffOptions {
  /** Delay before the first retry. Default 1 s. */
  baseMs?: number;
  /** Growth per further retry. Default 2. */
  factor?: number;
  /** Longest delay. Default 5 min. */
  maxMs?: number;
}

export interface LocalRunnerOptions {
  /** The pipelines it runs (the app's: lib/app/pipelines.ts). */
  pipelines: Pipelines;
  /** Default: the app's client (getDb()). */
  db?: Db;
  /** Jobs run at once by this runner. Default 2; NEWCOMER_SLOTS more are kept for accounts with nothing running. */
  concurrency?: number;
  /** How long a claim holds a job without a heartbeat. Default 30 s. */
  leaseMs?: number;
  /** How often a running job's lease is renewed. Default leaseMs / 3. */
  heartbeatMs?: number;
  /** This runner's id in `leaseOwner`. Default host:pid:random. */
  owner?: string;
  /** Safety-net poll; wake-ups come from NOTIFY and the in-process signal. Default 5 s. */
  pollMs?: number;
  backoff?: BackoffOptions;
  /** PostgreSQL URL to LISTEN on. Default: DATABASE_URL (none with the embedded PGlite). `null`: don't. */
  listenUrl?: string | null;
  /** Also wake on jobs enqueued in this process. Default true. */
  inProcessSignal?: boolean;
  /** Default: the logger (lib/observability/logger.ts), at info. */
  log?: (line: string) => void;
  /** Keep the process alive while the runner runs (a worker process). Default false: the app decides. */
  keepAlive?: boolean;
  /** Called after each run of a job has been written back (metrics, tests, benchmarks). */
  onSettled?: (event: SettledEvent) => void;
}

/** How one run of a job ended: finished, failed for good, queued for a retry, handed back, or lost. */
export interface SettledEvent {
  jobId: string;
  outcome: "done" | "error" | "retry" | "released" | "lost";
  attempt: number;
}

export interface LocalRunner {
  readonly owner: string;
  /** Jobs this runner is running now. */
  readonly running: number;
  /** Looks for due jobs now. */
  wake(): void;
  /**
   * Stops claiming, lets running jobs finish their current step (interruptible steps are aborted at
   * once), then releases them. After `timeoutMs` (default 30 s) running steps are aborted (their
   * `signal`) and their jobs released.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

/** Slots past `concurrency` only an account with nothing running may take: no first job waits behind a batch. */
export const NEWCOMER_SLOTS = 1;

/** Past this many attempts beyond maxAttempts, a job whose onFailure keeps throwing is closed without it. */
const ON_FAILURE_EXTRA_ATTEMPTS = 3;

export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { baseMs = 1_000, factor = 2, maxMs = 300_000 } = options;
  return Math.min(maxMs, baseMs * factor ** Math.max(0, attempt - 1));
}

/** The job's pipeline for a metric label: a known name, else "unknown" (label values stay few). */
function pipelineName(pipelines: Pipelines, job: Job): string {
  try {
    const name = jobInput(job).pipeline;
    return pipelines.has(name) ? name : "unknown";
  } catch {
    return "unknown";
  }
}

class StopAbort extends Error {
  constructor() {
    super("The runner is shutting down");
    this.name = "StopAbort";
  }
}

class LeaseAbort extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} was taken over by another runner`);
    this.name = "LeaseAbort";
  }
}

interface Running {
  controller: AbortController;
  /** The step being run now may be aborted at stop without losing work. */
  interruptible: boolean;
}

/** Starts a runner; resolves once it listens (when it can) and has looked for work once. */
export async function startLocalRunner(options: LocalRunnerOptions): Promise<LocalRunner> {
  const db = options.db ?? (await (await import("@/lib/db/client")).getDb());
  let listenUrl = options.listenUrl;
  if (listenUrl === undefined) {
    const { env } = await import("@/lib/env");
    listenUrl = env().DATABASE_URL ?? null;
  }
  const runner = new Runner(db, { ...options, listenUrl });
  await runner.start();
  return runner;
}

class Runner implements LocalRunner {
  readonly owner: string;
  private readonly loop: LeaseLoop;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly log: (line: string) => void;
  private readonly active = new Map<string, Running>();
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly options: LocalRunnerOptions & { listenUrl: string | null },
  ) {
    this.owner = options.owner ?? defaultOwner();
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(this.leaseMs / 3));
    this.log = options.log ?? ((line) => logger.info({ runner: this.owner }, line));
    const slots = options.concurrency ?? 2;
    this.loop = createLeaseLoop<Job>({
      concurrency: slots + NEWCOMER_SLOTS,
      claim: async () => {
        const newcomersOnly = this.loop.running >= slots;
        // Read before the claim's own statement: never later than its look, so nothing due after it is missed.
        const lookedAt = await databaseNowMs(this.db);
        const job = await claimJob(this.db, this.owner, this.leaseMs, { newcomersOnly });
        return { rows: job ? [job] : [], lookedAt };
      },
      run: (job) => this.launch(job),
      handBack: async () => {
        try {
          const released = await releaseOwner(this.db, this.owner);
          if (released > 0) this.log(`stop: released ${released} job(s)`);
        } catch (error) {
          this.log(`stop: could not release leases (they expire in ${this.leaseMs} ms): ${describe(error)}`);
        }
      },
      msUntilNextDue: (since) => msUntilNextDue(this.db, since),
      pollMs: options.pollMs ?? 5_000,
      listen: { channel: JOBS_CHANNEL, url: options.listenUrl },
      ...(options.inProcessSignal !== false ? { subscribe: onJobsAvailable } : {}),
      abort: (which) => {
        for (const r of this.active.values())
          if (which === "all" || r.interruptible) r.controller.abort(new StopAbort());
      },
      keepAlive: options.keepAlive ?? false,
      log: this.log,
    });
  }

  get running(): number {
    return this.loop.running;
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  private launch(job: Job): Promise<void> {
    const running: Running = { controller: new AbortController(), interruptible: false };
    this.active.set(job.id, running);
    return this.runJob(job, running)
      .catch((error: unknown) => this.log(`job ${job.id}: ${describe(error)}`))
      .finally(() => this.active.delete(job.id));
  }

  private async runJob(job: Job, running: Running): Promise<void> {
    // Every line this run logs carries the job id and the id of the request that enqueued it.
    const outcome = await withLogContext(
      { jobId: job.id, ...(job.requestId ? { requestId: job.requestId } : {}) },
      () => this.runJobOnce(job, running),
    );
    jobRunEnded(pipelineName(this.options.pipelines, job), outcome);
    try {
      this.options.onSettled?.({ jobId: job.id, outcome, attempt: job.attempts });
    } catch (error) {
      this.log(`onSettled threw: ${describe(error)}`);
    }
  }

  private async runJobOnce(job: Job, running: Running): Promise<SettledEvent["outcome"]> {
    const { controller } = running;
    const lease: Lease = { owner: this.owner, attempts: job.attempts, leaseMs: this.leaseMs };
    const heartbeat = setInterval(() => {
      renewLease(this.db, job.id, lease)
        .then((ok) => {
          if (!ok && !controller.signal.aborted) controller.abort(new LeaseAbort(job.id));
        })
        .catch((error: unknown) => this.log(`job ${job.id}: heartbeat failed: ${describe(error)}`));
    }, this.heartbeatMs);
    heartbeat.unref?.();

    let pipeline: Pipeline<Record<string, unknown>> | undefined;
    let ctx: Record<string, unknown> = {};
    try {
      const input = jobInput(job);
      pipeline = findPipeline(this.options.pipelines, input.pipeline);
      // Retryable: this process may be one deploy behind.
      if (!pipeline)
        throw new RetryableError("unknown_pipeline", `No pipeline named "${input.pipeline}" is known here`);
      ctx = currentContext(pipeline, job);

      if (job.attempts > job.maxAttempts) {
        // Attempts used up by runs that died (or whose onFailure threw): end it without running steps.
        const failure = {
          code: storedFailureCode(job.errorCode, ATTEMPTS_EXHAUSTED),
          message: job.errorMessage ?? "The transcription stopped several times before it could finish. Try again.",
        };
        return await this.fail(job, lease, pipeline, ctx, failure);
      }

      const io: StepContext = {
        jobId: job.id,
        userId: job.userId,
        attempt: job.attempts,
        signal: controller.signal,
        progress: async (stage, fraction) => {
          const ok = await saveProgress(this.db, job.id, lease, stage, fraction);
          if (!ok && !controller.signal.aborted) controller.abort(new LeaseAbort(job.id));
        },
      };
      const checkpoints = jobCheckpoints(job);
      const steps = pipeline.steps;
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        if (checkpoints[step.name] !== undefined) continue;
        if (controller.signal.aborted) throw controller.signal.reason;
        if (this.stopping) return (await releaseJob(this.db, job.id, lease)) ? "released" : "lost";
        running.interruptible = step.interruptible === true;
        const stepCtx = checkedContext(pipeline, ctx);
        const output = checkpointValue(
          await observeStep(pipeline.name, step.name, job.attempts, () => step.run(stepCtx, io)),
        );
        running.interruptible = false;
        const saved = await saveCheckpoint(
          this.db,
          job.id,
          lease,
          step.name,
          output,
          (i + 1) / steps.length,
          steps[i + 1]?.name ?? null,
        );
        if (!saved) {
          this.log(`job ${job.id}: lost its lease during step ${step.name}; leaving it to its new owner`);
          return "lost";
        }
        ctx = { ...ctx, ...output };
      }

      const finisher = pipeline;
      const finished = await completeJob(
        this.db,
        job,
        lease,
        finisher.onSuccess ? (fio) => finisher.onSuccess!(ctx, fio) : undefined,
      );
      if (finished) return "done";
      this.log(`job ${job.id}: lost its lease before finishing; leaving it to its new owner`);
      return "lost";
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason instanceof LeaseAbort) {
        this.log(`job ${job.id}: ${reason.message}`);
        return "lost";
      }
      if (reason instanceof StopAbort) return (await releaseJob(this.db, job.id, lease)) ? "released" : "lost";
      const failure = toJobFailure(error);
      const final = isPermanent(error) || job.attempts >= job.maxAttempts;
      // The job keeps the user's sentence; the operator's cause and setting go to the log and /metrics.
      reportFailure("job", failure.code, error, { jobId: job.id, attempt: job.attempts, final });
      if (final && pipeline) return await this.fail(job, lease, pipeline, ctx, failure);
      if (final) return (await failJob(this.db, job, lease, failure)) ? "error" : "lost";
      const delay = backoffDelay(job.attempts, this.options.backoff);
      this.log(
        `job ${job.id}: attempt ${job.attempts} failed (${failure.code}: ${failure.message}); retrying in ${delay} ms`,
      );
      return (await scheduleRetry(this.db, job.id, lease, delay, failure)) ? "retry" : "lost";
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Ends the job in `error` with onFailure; if onFailure throws, tries again later. */
  private async fail(
    job: Job,
    lease: Lease,
    pipeline: Pipeline<Record<string, unknown>>,
    ctx: Record<string, unknown>,
    failure: JobFailure,
  ): Promise<SettledEvent["outcome"]> {
    try {
      const failed = await failJob(this.db, job, lease, failure, (io) => pipeline.onFailure(ctx, failure, io));
      if (!failed) {
        this.log(`job ${job.id}: lost its lease before failing; leaving it to its new owner`);
        return "lost";
      }
      this.log(`job ${job.id}: failed (${failure.code}: ${failure.message})`);
      return "error";
    } catch (error) {
      if (job.attempts > job.maxAttempts + ON_FAILURE_EXTRA_ATTEMPTS) {
        this.log(`job ${job.id}: onFailure keeps failing (${describe(error)}); closing the job WITHOUT it`);
        return (await failJob(this.db, job, lease, failure)) ? "error" : "lost";
      }
      const delay = backoffDelay(job.attempts, this.options.backoff);
      this.log(`job ${job.id}: onFailure failed (${describe(error)}); trying again in ${delay} ms`);
      return (await scheduleRetry(this.db, job.id, lease, delay, failure)) ? "retry" : "lost";
    }
  }

  stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.stopping = true;
    return this.loop.stop(options.timeoutMs ?? 30_000);
  }
}

// One runner per app process (Next.js dev reloads re-run modules; the runner lives on globalThis).
const holder = globalThis as { verbatimLocalRunner?: Promise<LocalRunner> };

/** Starts the app process's runner once; later calls return the same one. */
export function ensureLocalRunner(options: LocalRunnerOptions): Promise<LocalRunner> {
  if (!holder.verbatimLocalRunner) {
    const pending = startLocalRunner(options);
    pending.catch(() => (holder.verbatimLocalRunner = undefined));
    holder.verbatimLocalRunner = pending;
  }
  return holder.verbatimLocalRunner;
}
