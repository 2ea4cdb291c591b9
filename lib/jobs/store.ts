// Every change to a Job row that the drivers make, in SQL. Timestamps are UTC wall-clock values in
// `timestamp(3)` columns (Prisma's convention), hence `now() AT TIME ZONE 'UTC'`.
//
// A run of the local runner owns a row while `leaseOwner` is its owner id and `attempts` is the value
// its claim set (a fencing token: a later claim of the same row, even by the same runner, increments
// it). Every write of a run is guarded by both, so a runner that lost its lease cannot change the job.
// The Inngest driver has no lease (Inngest runs one attempt at a time); its writes are guarded by status.
// Text written here (error messages, which may quote an upstream's bytes; stages) is made storable first
// (lib/db/storable-text.ts): a NUL in a feed's error message must not make the failure itself unsaveable.
import { Prisma, type Job, type PrismaClient } from "@/lib/generated/prisma/client";
import { type FinishIO, type JobFailure, type JobOutcome } from "@/lib/jobs/pipeline";
import type { Db } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { atEpochMs, NOW, NOW_EPOCH_MS } from "@/lib/db/utc-now";

export type DbOrTx = PrismaClient | Prisma.TransactionClient;

/** Which run may write a row: the local runner's lease, or `null` for the Inngest driver. */
export interface Lease {
  owner: string;
  /** The row's `attempts` right after this run claimed it. */
  attempts: number;
  leaseMs: number;
}

/** The row is no longer this run's (lease taken over, or the job was finished or released). */
export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} is no longer held by this runner`);
    this.name = "LeaseLostError";
  }
}

function owned(jobId: string, lease: Lease | null): Prisma.Sql {
  return lease
    ? Prisma.sql`"id" = ${jobId} AND "status" = 'running' AND "leaseOwner" = ${lease.owner} AND "attempts" = ${lease.attempts}`
    : Prisma.sql`"id" = ${jobId} AND "status" IN ('queued', 'running')`;
}

function leaseUntil(lease: Lease): Prisma.Sql {
  return Prisma.sql`${NOW} + ${lease.leaseMs}::float8 * interval '1 millisecond'`;
}

/**
 * Claims the next due job for `owner`: a queued job whose time has come, or a running job whose lease
 * expired (its runner died). One statement; `SKIP LOCKED` lets concurrent runners pass each other.
 *
 * Fair between accounts: of the due jobs, those of the account with the fewest jobs running come first, then
 * those of the account whose last claim is oldest (never claimed: first), then the oldest due. So one account's
 * thousand queued jobs never keep another account's job waiting for more than the slot that frees next: each
 * claim after one of theirs goes to the other account's job. Both lookups are one index probe per account
 * (Job_userId_status_idx, Job_userId_claimedAt_idx), whatever the account's history.
 *
 * `newcomersOnly`: only a job of an account with nothing running (a runner's slot kept for them, so another
 * account's single link starts at once while one account's batch fills the other slots).
 */
export async function claimJob(
  db: DbOrTx,
  owner: string,
  leaseMs: number,
  { newcomersOnly = false }: { newcomersOnly?: boolean } = {},
): Promise<Job | null> {
  const newcomer = newcomersOnly
    ? Prisma.sql` AND NOT EXISTS (SELECT 1 FROM "Job" r WHERE r."userId" = due."userId" AND r."status" = 'running' AND r."leaseUntil" >= ${NOW})`
    : Prisma.empty;
  const rows = await db.$queryRaw<Job[]>`
    UPDATE "Job" SET "status" = 'running', "leaseOwner" = ${owner},
      "leaseUntil" = ${NOW} + ${leaseMs}::float8 * interval '1 millisecond', "attempts" = "attempts" + 1,
      "claimedAt" = clock_timestamp() AT TIME ZONE 'UTC', "updatedAt" = ${NOW}
    WHERE "id" = (
      SELECT due."id" FROM "Job" due
      WHERE ((due."status" = 'queued' AND due."runAt" <= ${NOW}) OR (due."status" = 'running' AND due."leaseUntil" < ${NOW}))${newcomer}
      ORDER BY
        (SELECT count(*) FROM "Job" r WHERE r."userId" = due."userId" AND r."status" = 'running' AND r."leaseUntil" >= ${NOW}),
        (SELECT max(c."claimedAt") FROM "Job" c WHERE c."userId" = due."userId") ASC NULLS FIRST,
        due."runAt"
      FOR UPDATE OF due SKIP LOCKED LIMIT 1)
    RETURNING *`;
  return rows[0] ?? null;
}

/** The database's clock now, in epoch milliseconds (when a claim looks, for msUntilNextDue). */
export async function databaseNowMs(db: DbOrTx): Promise<number> {
  const rows = await db.$queryRaw<{ ms: number }[]>`SELECT ${NOW_EPOCH_MS} AS ms`;
  return rows[0]!.ms;
}

/**
 * Milliseconds until the next queued job is due or the next lease expires (null: nothing waiting), of those due after
 * `since` (epoch ms by the database's clock: when the lease loop's last claim looked): a job due before, which that
 * claim passed over (the slot kept for newcomers), waits for a slot to free, not for a timer that would fire again at
 * once.
 */
export async function msUntilNextDue(db: DbOrTx, since: number): Promise<number | null> {
  const after = atEpochMs(since);
  const rows = await db.$queryRaw<{ ms: number | null }[]>`
    SELECT (EXTRACT(EPOCH FROM (LEAST(
      (SELECT min("runAt") FROM "Job" WHERE "status" = 'queued' AND "runAt" > ${after}),
      (SELECT min("leaseUntil") FROM "Job" WHERE "status" = 'running' AND "leaseUntil" > ${after})) - ${NOW})) * 1000)::float8 AS ms`;
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, ms);
}

/** Extends the lease. False when the run no longer owns the job. */
export async function renewLease(db: DbOrTx, jobId: string, lease: Lease): Promise<boolean> {
  const n = await db.$executeRaw`UPDATE "Job" SET "leaseUntil" = ${leaseUntil(lease)} WHERE ${owned(jobId, lease)}`;
  return n === 1;
}

/**
 * Records a finished step's output (and the progress it brings) in one statement, and renews the
 * lease. False when the run no longer owns the job: the caller must stop.
 */
export async function saveCheckpoint(
  db: DbOrTx,
  jobId: string,
  lease: Lease | null,
  step: string,
  output: Record<string, unknown>,
  progress: number,
  nextStage: string | null,
): Promise<boolean> {
  const renew = lease ? Prisma.sql`, "leaseUntil" = ${leaseUntil(lease)}` : Prisma.empty;
  const running = lease ? Prisma.empty : Prisma.sql`, "status" = 'running'`;
  const n = await db.$executeRaw`
    UPDATE "Job" SET "checkpoints" = "checkpoints" || jsonb_build_object(${step}::text, ${JSON.stringify(output)}::jsonb),
      "progress" = GREATEST("progress", ${progress}::float8), "stage" = COALESCE(${nextStage}::text, "stage"),
      "updatedAt" = ${NOW}${renew}${running}
    WHERE ${owned(jobId, lease)}`;
  return n === 1;
}

/** A step's own progress report (progress never goes back). False when the run no longer owns the job. */
export async function saveProgress(
  db: DbOrTx,
  jobId: string,
  lease: Lease | null,
  stage: string,
  fraction: number,
): Promise<boolean> {
  const value = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const n = await db.$executeRaw`
    UPDATE "Job" SET "stage" = ${storableText(stage)}, "progress" = GREATEST("progress", ${value}::float8), "updatedAt" = ${NOW}
    WHERE ${owned(jobId, lease)}`;
  return n === 1;
}

/** Marks the Inngest driver's run as started (no lease: Inngest runs one attempt at a time). */
export async function markStarted(db: DbOrTx, jobId: string, attempt: number): Promise<Job | null> {
  const rows = await db.$queryRaw<Job[]>`
    UPDATE "Job" SET "status" = 'running', "attempts" = GREATEST("attempts", ${attempt}::int), "updatedAt" = ${NOW}
    WHERE "id" = ${jobId} AND "status" IN ('queued', 'running')
    RETURNING *`;
  return rows[0] ?? null;
}

/** Puts the job back in the queue to run again after `delayMs`, recording the error that caused it. */
export async function scheduleRetry(
  db: DbOrTx,
  jobId: string,
  lease: Lease,
  delayMs: number,
  failure: JobFailure,
): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Job" SET "status" = 'queued', "runAt" = ${NOW} + ${Math.round(delayMs)}::float8 * interval '1 millisecond',
      "leaseOwner" = NULL, "leaseUntil" = NULL, "errorCode" = ${storableText(failure.code)}, "errorMessage" = ${storableText(failure.message)},
      "updatedAt" = ${NOW}
    WHERE ${owned(jobId, lease)}`;
  return n === 1;
}

/** Records the latest error without changing the status (Inngest driver: Inngest schedules the retry). */
export async function recordError(db: DbOrTx, jobId: string, failure: JobFailure): Promise<void> {
  await db.$executeRaw`
    UPDATE "Job" SET "errorCode" = ${storableText(failure.code)}, "errorMessage" = ${storableText(failure.message)}, "updatedAt" = ${NOW}
    WHERE "id" = ${jobId} AND "status" IN ('queued', 'running')`;
}

/**
 * Gives an unfinished job back without counting the interrupted attempt (graceful shutdown):
 * queued, due now, checkpoints kept.
 */
export async function releaseJob(db: DbOrTx, jobId: string, lease: Lease): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Job" SET "status" = 'queued', "runAt" = ${NOW}, "leaseOwner" = NULL, "leaseUntil" = NULL,
      "attempts" = GREATEST("attempts" - 1, 0), "updatedAt" = ${NOW}
    WHERE ${owned(jobId, lease)}`;
  return n === 1;
}

/** Releases every job still leased to `owner` (end of shutdown). */
export async function releaseOwner(db: DbOrTx, owner: string): Promise<number> {
  return db.$executeRaw`
    UPDATE "Job" SET "status" = 'queued', "runAt" = ${NOW}, "leaseOwner" = NULL, "leaseUntil" = NULL,
      "attempts" = GREATEST("attempts" - 1, 0), "updatedAt" = ${NOW}
    WHERE "leaseOwner" = ${owner} AND "status" = 'running'`;
}

const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/**
 * Marks the job `done` and runs `hook` in the same transaction, only if the run still owns the job
 * (`lease`), or, for the Inngest driver (`lease` null), only if the job is not finished yet. Returns
 * false, having changed nothing, when the job was not this run's to finish. A throwing hook rolls
 * everything back.
 */
export async function completeJob(
  db: Db,
  job: Job,
  lease: Lease | null,
  hook?: (io: FinishIO) => Promise<JobOutcome | void>,
): Promise<boolean> {
  if (!hook) {
    // Nothing else to commit with it: one statement, no transaction.
    const n = await db.$executeRaw`
      UPDATE "Job" SET "status" = 'done', "progress" = 1, "leaseOwner" = NULL, "leaseUntil" = NULL,
        "errorCode" = NULL, "errorMessage" = NULL, "updatedAt" = ${NOW}
      WHERE ${owned(job.id, lease)}`;
    return n === 1;
  }
  try {
    await db.$transaction(async (tx) => {
      const n = await tx.$executeRaw`
        UPDATE "Job" SET "status" = 'done', "progress" = 1, "leaseOwner" = NULL, "leaseUntil" = NULL,
          "errorCode" = NULL, "errorMessage" = NULL, "updatedAt" = ${NOW}
        WHERE ${owned(job.id, lease)}`;
      if (n !== 1) throw new LeaseLostError(job.id);
      const outcome = await hook({ jobId: job.id, userId: job.userId, tx, job });
      if (outcome && (outcome.transcriptId !== undefined || outcome.chargedSecs !== undefined)) {
        await tx.job.update({
          where: { id: job.id },
          data: { transcriptId: outcome.transcriptId, chargedSecs: outcome.chargedSecs },
        });
      }
    }, TX_OPTIONS);
    return true;
  } catch (error) {
    if (error instanceof LeaseLostError) return false;
    throw error;
  }
}

/**
 * Marks the job `error` with `failure` and runs `hook` (e.g. a refund) in the same transaction, under
 * the same guard as `completeJob`. Returns false, having changed nothing, when it was not this run's.
 */
export async function failJob(
  db: Db,
  job: Job,
  lease: Lease | null,
  failure: JobFailure,
  hook?: (io: FinishIO) => Promise<void>,
): Promise<boolean> {
  if (!hook) {
    const n = await db.$executeRaw`
      UPDATE "Job" SET "status" = 'error', "leaseOwner" = NULL, "leaseUntil" = NULL,
        "errorCode" = ${storableText(failure.code)}, "errorMessage" = ${storableText(failure.message)}, "updatedAt" = ${NOW}
      WHERE ${owned(job.id, lease)}`;
    return n === 1;
  }
  try {
    await db.$transaction(async (tx) => {
      const n = await tx.$executeRaw`
        UPDATE "Job" SET "status" = 'error', "leaseOwner" = NULL, "leaseUntil" = NULL,
          "errorCode" = ${storableText(failure.code)}, "errorMessage" = ${storableText(failure.message)}, "updatedAt" = ${NOW}
        WHERE ${owned(job.id, lease)}`;
      if (n !== 1) throw new LeaseLostError(job.id);
      await hook({ jobId: job.id, userId: job.userId, tx, job });
    }, TX_OPTIONS);
    return true;
  } catch (error) {
    if (error instanceof LeaseLostError) return false;
    throw error;
  }
}
