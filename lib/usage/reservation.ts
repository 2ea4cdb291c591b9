import type { Prisma } from "@/lib/generated/prisma/client";
import { chargeSecondsIn, refundSeconds } from "@/lib/usage/charge";

// A job's reservation: `Job.reservedSecs` seconds charged to the usage period that starts at
// `Job.periodStart` (recorded when the job was enqueued). Settling it to the measured duration and
// refunding it both go to that period, whatever the period is by then (a month boundary, an upgrade
// that moved the reservation to the first paid period). The job row is locked first, so concurrent
// settles and refunds of one job, and an upgrade moving its reservation, apply one after the other.

type Tx = Prisma.TransactionClient;

interface LockedReservation {
  reservedSecs: number;
  periodStart: Date | null;
}

async function lockReservation(tx: Tx, jobId: string): Promise<LockedReservation | null> {
  const [job] = await tx.$queryRaw<
    LockedReservation[]
  >`SELECT "reservedSecs", "periodStart" FROM "Job" WHERE "id" = ${jobId} FOR UPDATE`;
  return job ?? null;
}

/**
 * Moves the job's reservation to `measured` seconds in its period. False (nothing changed) when the extra
 * seconds do not fit in the allowance. `fallbackPeriod` is for jobs enqueued before the period was recorded.
 */
export async function settleReservation(
  tx: Tx,
  jobId: string,
  userId: string,
  measured: number,
  fallbackPeriod: Date,
): Promise<boolean> {
  const job = await lockReservation(tx, jobId);
  const period = job?.periodStart ?? fallbackPeriod;
  const delta = measured - (job?.reservedSecs ?? 0);
  if (delta > 0 && !(await chargeSecondsIn(tx, userId, delta, period))) return false;
  if (delta < 0) await refundSeconds(tx, userId, -delta, period);
  await tx.job.update({ where: { id: jobId }, data: { reservedSecs: measured } });
  return true;
}

/** Gives the whole reservation back to its period and zeroes it (a failed job). */
export async function refundReservation(tx: Tx, jobId: string, userId: string, fallbackPeriod: Date): Promise<void> {
  const job = await lockReservation(tx, jobId);
  await refundSeconds(tx, userId, job?.reservedSecs ?? 0, job?.periodStart ?? fallbackPeriod);
  await tx.job.update({ where: { id: jobId }, data: { reservedSecs: 0 } });
}

/**
 * An upgrade opened the first paid period with the month's usage carried over: the user's running
 * reservations, part of that usage, now belong to the paid period (refunds and settles go there).
 * Call before reading the usage to carry over, in the same transaction: it locks the jobs, so no settle
 * of theirs lands in between.
 */
export async function lockActiveReservations(tx: Tx, userId: string, periodStart: Date): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Job" WHERE "userId" = ${userId} AND "status" IN ('queued', 'running') AND "periodStart" = ${periodStart}
    ORDER BY "id" FOR UPDATE`;
  return rows.map((row) => row.id);
}

export async function moveReservations(tx: Tx, jobIds: string[], periodStart: Date): Promise<void> {
  if (jobIds.length === 0) return;
  await tx.job.updateMany({ where: { id: { in: jobIds } }, data: { periodStart } });
}
