// The local driver: jobs are rows in PostgreSQL (or PGlite), claimed one at a time with
// `FOR UPDATE SKIP LOCKED` under a lease (see store.ts), each step's output checkpointed on the row.
//
// - Wake-ups: `LISTEN verbatim_jobs` on a dedicated `pg` connection (PostgreSQL) and the in-process
//   signal (always; the only one with PGlite). A timer for the next retry or lease expiry, and a slow
//   poll as a safety net, cover anything missed.
// - Crashes: a dead runner's lease expires; the next claim takes the job over and resumes after its
//   last checkpoint. A running job's lease is renewed by a heartbeat while its step runs.
// - Failures: retryable errors go back to the queue with exponential backoff until `maxAttempts`;
//   then, or at once for a PermanentError, the job ends in `error` and the pipeline's onFailure runs
//   in that same transaction. Success marks `done` and runs onSuccess in that same transaction.
// - `stop()`: no new claims; running jobs finish their current step (an `interruptible` step, one that
//   only waits, is aborted at once) and are released (queued again, the interrupted attempt not
//   counted) so another runner resumes them.
//
// One file on purpose: claim, lease, heartbeat, wake-ups and stop all act on one runner's state (its running
// jobs, its timers, its LISTEN connection); the row operations they share live in store.ts and pipeline.ts.
import { reportFailure } from "@/lib/observability/failure-cause";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import pg from "pg";
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
import { jobRunEnded, observeStep } from "@/lib/jobs/observe-step";
import { log as logger } from "@/lib/observability/logger";
import { withLogContext } from "@/lib/observability/request-context";
import {
  claimJob,
  completeJob,
  failJob,
  msUntilNextDue,
  releaseJob,
  releaseOwner,
  renewLease,
  saveCheckpoint,
  saveProgress,
  scheduleRetry,
  type Db,
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
  /** The pipelines it runs (the app's: lib/jobs/pipelines.ts). */
  pipelines: Pipelines;
  /** Default: the app's client (getDb()). */
  db?: Db;
  /** Jobs run at once by this runner. Default 2. */
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

export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
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
  done: Promise<void>;
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
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly pollMs: number;
  private readonly log: (line: string) => void;
  private readonly active = new Map<string, Running>();
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private dueTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private listener: Listener | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: LocalRunnerOptions & { listenUrl: string | null },
  ) {
    this.owner = options.owner ?? defaultOwner();
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(this.leaseMs / 3));
    this.pollMs = options.pollMs ?? 5_000;
    this.log = options.log ?? ((line) => logger.info({ runner: this.owner }, line));
  }

  get running(): number {
    return this.active.size;
  }

  async start(): Promise<void> {
    if (this.options.inProcessSignal !== false) this.unsubscribe = onJobsAvailable(() => this.wake());
    if (this.options.listenUrl) {
      this.listener = new Listener(this.options.listenUrl, () => this.wake(), this.log);
      await this.listener.start();
    }
    this.pollTimer = setInterval(() => this.wake(), this.pollMs);
    if (!this.options.keepAlive) this.pollTimer.unref?.();
    // Expired leases of dead runners are recovered by the same claim.
    this.wake();
    await this.pumping;
  }

  wake(): void {
    if (this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => (this.pumping = undefined));
  }

  private async pump(): Promise<void> {
    do {
      this.pumpAgain = false;
      while (!this.stopping && this.active.size < this.concurrency) {
        let job: Job | null;
        try {
          job = await claimJob(this.db, this.owner, this.leaseMs);
        } catch (error) {
          this.log(`claim failed: ${describe(error)}`);
          return;
        }
        if (!job) break;
        this.launch(job);
      }
      if (!this.stopping && this.active.size < this.concurrency) await this.armDueTimer();
    } while (this.pumpAgain && !this.stopping);
  }

  /** Wakes up when the next retry is due or the next lease expires, if that is before the next poll. */
  private async armDueTimer(): Promise<void> {
    let ms: number | null;
    try {
      ms = await msUntilNextDue(this.db);
    } catch (error) {
      this.log(`could not read the next due time: ${describe(error)}`);
      return;
    }
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
    if (ms === null || ms >= this.pollMs || this.stopping) return;
    this.dueTimer = setTimeout(() => this.wake(), Math.ceil(ms) + 5);
    this.dueTimer.unref?.();
  }

  private launch(job: Job): void {
    const running: Running = { controller: new AbortController(), done: Promise.resolve(), interruptible: false };
    running.done = this.runJob(job, running)
      .catch((error: unknown) => this.log(`job ${job.id}: ${describe(error)}`))
      .finally(() => {
        this.active.delete(job.id);
        this.wake();
      });
    this.active.set(job.id, running);
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
    this.stopped ??= this.shutdown(options.timeoutMs ?? 30_000);
    return this.stopped;
  }

  private async shutdown(timeoutMs: number): Promise<void> {
    this.stopping = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.unsubscribe?.();
    await this.pumping;
    for (const r of this.active.values()) if (r.interruptible) r.controller.abort(new StopAbort());
    const all = () => Promise.all([...this.active.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.log(`stop: ${this.active.size} job(s) still running after ${timeoutMs} ms; aborting them`);
      for (const r of this.active.values()) r.controller.abort(new StopAbort());
      await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, 5_000).unref?.())]);
    }
    try {
      const released = await releaseOwner(this.db, this.owner);
      if (released > 0) this.log(`stop: released ${released} job(s)`);
    } catch (error) {
      this.log(`stop: could not release leases (they expire in ${this.leaseMs} ms): ${describe(error)}`);
    }
    await this.listener?.close();
  }
}

/** A dedicated connection LISTENing on the jobs channel; reconnects with backoff when it drops. */
class Listener {
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onNotify: () => void,
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log(`LISTEN connection lost${error ? ` (${error.message})` : ""}; reconnecting in ${this.retryMs} ms`);
      this.scheduleReconnect();
    };
    client.on("notification", () => this.onNotify());
    client.on("error", lost);
    client.on("end", () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
      this.retryMs = 500;
      // Anything enqueued while we were not listening.
      this.onNotify();
    } catch (error) {
      if (this.client === client) {
        this.client = undefined;
        client.end().catch(() => {});
        if (!this.closed) {
          this.log(`could not LISTEN (${describe(error)}); retrying in ${this.retryMs} ms, polling meanwhile`);
          this.scheduleReconnect();
        }
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.start();
    }, this.retryMs);
    this.retryTimer.unref?.();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

/** Stops the app process's runner, if one was started. */
export async function stopLocalRunner(options?: { timeoutMs?: number }): Promise<void> {
  const pending = holder.verbatimLocalRunner;
  holder.verbatimLocalRunner = undefined;
  if (pending) await (await pending).stop(options);
}
