// Route handlers call this and return; they never run a pipeline inline.
import type { Job, Prisma } from "@/lib/generated/prisma/client";
import type { JobFailure, JobInput, Pipeline } from "@/lib/jobs/pipeline";
import { JOBS_CHANNEL, signalJobsAvailable } from "@/lib/jobs/signal";
import type { Db } from "@/lib/db/client";
import { failJob, type DbOrTx } from "@/lib/jobs/store";
import { inngestConfigured } from "@/lib/jobs/drivers/inngest-settings";
import { log } from "@/lib/observability/logger";
import { currentRequestId } from "@/lib/observability/request-context";

export interface EnqueueJobInput<C> {
  userId: string;
  /** One of the app's pipelines (lib/app/pipelines.ts); it types `context`. */
  pipeline: Pipeline<C>;
  context: C;
  /** Seconds of allowance reserved for this job (refunded by the pipeline's onFailure). */
  reservedSecs?: number;
  /** Start of the usage period the reservation was charged to (settled and refunded there). */
  periodStart?: Date;
  /** Default: the pipeline's maxAttempts, else the column default (5). */
  maxAttempts?: number;
  /** Not before this time (the local runner's claim; Inngest schedules the event's run for it, `ts`). */
  runAt?: Date;
  /** Where the job runs. Default "auto": Inngest when configured, else the local runner. */
  driver?: "auto" | "local" | "inngest";
}

function isTransaction(db: DbOrTx): boolean {
  return !("$transaction" in db);
}

/**
 * Inserts a queued job and wakes a runner: `NOTIFY verbatim_jobs` (delivered when the surrounding
 * transaction commits, if `db` is one) and the in-process signal. With Inngest configured, sends
 * `verbatim/job.requested` instead.
 *
 * Call it inside the transaction that reserves the user's allowance, so that both happen or neither.
 * (With Inngest, the event is sent before that transaction commits; the function retries until the row
 * is visible.)
 */
export async function enqueueJob<C extends object>(db: DbOrTx, input: EnqueueJobInput<C>): Promise<Job> {
  const { pipeline } = input;
  const name = pipeline.name;
  const driver =
    input.driver === undefined || input.driver === "auto" ? (inngestConfigured() ? "inngest" : "local") : input.driver;
  const maxAttempts = input.maxAttempts ?? pipeline.maxAttempts;
  const jobInput: JobInput<C> = { pipeline: name, context: input.context };
  const requestId = currentRequestId();

  const job = await db.job.create({
    data: {
      userId: input.userId,
      input: JSON.parse(JSON.stringify(jobInput)) as Prisma.InputJsonValue,
      reservedSecs: input.reservedSecs ?? 0,
      ...(input.periodStart ? { periodStart: input.periodStart } : {}),
      ...(maxAttempts !== undefined ? { maxAttempts } : {}),
      ...(input.runAt ? { runAt: input.runAt } : {}),
      ...(requestId ? { requestId } : {}),
      // Sent below; the relay (drivers/inngest-relay.ts) hands over only the rows nobody sent.
      ...(driver === "inngest" ? { dispatchedAt: new Date() } : {}),
    },
  });
  log.info({ jobId: job.id, pipeline: name, driver }, "job enqueued");

  if (driver === "inngest") {
    try {
      const { inngest, JOB_REQUESTED } = await import("@/lib/jobs/drivers/inngest-client");
      await inngest.send({
        name: JOB_REQUESTED,
        data: { jobId: job.id, userId: job.userId, ...(requestId ? { requestId } : {}) },
        ...(input.runAt && input.runAt.getTime() > Date.now() ? { ts: input.runAt.getTime() } : {}),
      });
    } catch (error) {
      // Inside a transaction the caller's rollback removes the row; otherwise the job ends here, with
      // its pipeline's onFailure (the refund) run exactly once.
      if (!isTransaction(db)) {
        const message = error instanceof Error ? error.message : String(error);
        const failure: JobFailure = {
          code: "dispatch_failed",
          message: `The job could not be handed to Inngest: ${message}`,
        };
        await failJob(db as Db, job, null, failure, (io) => pipeline.onFailure(input.context, failure, io)).catch(
          (failError: unknown) => log.error({ jobId: job.id, err: failError }, "could not mark the job failed"),
        );
      }
      throw error;
    }
    return job;
  }

  await db.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${job.id})`;
  signalJobsAvailable(job.id);
  return job;
}
