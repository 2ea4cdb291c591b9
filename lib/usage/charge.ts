import type { Prisma, Tier } from "@/lib/generated/prisma/client";
import {
  allowanceShortSentence,
  billingPeriod,
  calendarMonth,
  tierAllowanceSeconds,
  type UsageWindow,
} from "@/lib/usage/allowance";

type Tx = Prisma.TransactionClient;

export interface UsagePlan {
  tier: Tier;
  /** Null: no limit on this server (usage is still counted). */
  limitSeconds: number | null;
  window: UsageWindow;
}

/**
 * The caller's tier, limit and current period, read inside the transaction that charges: a paid tier's
 * period is its Stripe billing period, free is the UTC calendar month.
 */
export async function usagePlan(tx: Tx, userId: string, now = new Date()): Promise<UsagePlan> {
  const subscription = await tx.subscription.findUnique({
    where: { userId },
    select: { tier: true, currentPeriodStart: true, currentPeriodEnd: true },
  });
  const tier = subscription?.tier ?? "free";
  const paidPeriod =
    tier !== "free" && subscription?.currentPeriodStart && subscription.currentPeriodEnd
      ? billingPeriod({ start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd }, now)
      : null;
  return { tier, limitSeconds: tierAllowanceSeconds(tier), window: paidPeriod ?? calendarMonth(now) };
}

/**
 * Adds `seconds` to the user's usage for the current period if it stays within the limit.
 * One conditional UPDATE, so concurrent charges can never take usage past the limit.
 * Returns the period charged, or null (and changes nothing) when there is not enough allowance left.
 */
export async function chargeSeconds(
  tx: Tx,
  userId: string,
  seconds: number,
  now = new Date(),
): Promise<UsageWindow | null> {
  const plan = await usagePlan(tx, userId, now);
  const { start } = plan.window;
  await openPeriod(tx, userId, plan.window, 0);
  if (seconds <= 0) return plan.window;
  const updated = await addWithinLimit(tx, userId, start, seconds, plan.limitSeconds);
  return updated ? plan.window : null;
}

/**
 * Adds `seconds` to the period that starts at `periodStart` (where a job's reservation was charged), if
 * that period stays within the user's current limit. True when charged; false changes nothing. Settling a
 * reservation uses this, so a job that crosses a month boundary is charged in the period it was reserved in.
 */
export async function chargeSecondsIn(
  tx: Tx,
  userId: string,
  seconds: number,
  periodStart: Date,
  now = new Date(),
): Promise<boolean> {
  if (seconds <= 0) return true;
  const plan = await usagePlan(tx, userId, now);
  return addWithinLimit(tx, userId, periodStart, seconds, plan.limitSeconds);
}

/**
 * One conditional UPDATE of the period's row: with a limit, only if usage stays within it; without one
 * (null), always, so usage is still counted.
 */
async function addWithinLimit(
  tx: Tx,
  userId: string,
  periodStart: Date,
  seconds: number,
  limitSeconds: number | null,
): Promise<boolean> {
  const updated =
    limitSeconds === null
      ? await tx.$executeRaw`
    UPDATE "UsagePeriod" SET "usedSeconds" = "usedSeconds" + ${seconds}, "updatedAt" = now()
    WHERE "userId" = ${userId} AND "periodStart" = ${periodStart}`
      : await tx.$executeRaw`
    UPDATE "UsagePeriod" SET "usedSeconds" = "usedSeconds" + ${seconds}, "updatedAt" = now()
    WHERE "userId" = ${userId} AND "periodStart" = ${periodStart} AND "usedSeconds" + ${seconds} <= ${limitSeconds}`;
  return updated === 1;
}

/**
 * Starts the usage row of a period with `seconds` already used, unless it exists (a first paid period).
 * True when this call created it.
 */
export async function openPeriod(tx: Tx, userId: string, window: UsageWindow, seconds: number): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO "UsagePeriod" ("id", "userId", "periodStart", "periodEnd", "usedSeconds", "updatedAt")
    VALUES (${`up_${userId}_${window.start.getTime()}`}, ${userId}, ${window.start}, ${window.end}, ${seconds}, now())
    ON CONFLICT ("userId", "periodStart") DO NOTHING`;
  return inserted === 1;
}

/** Seconds used in the current period (0 when nothing was charged yet). */
export async function usedSeconds(tx: Tx, userId: string, window: UsageWindow): Promise<number> {
  const row = await tx.usagePeriod.findUnique({ where: { userId_periodStart: { userId, periodStart: window.start } } });
  return row?.usedSeconds ?? 0;
}

/**
 * Gives back seconds charged in the period that starts at `periodStart` (a failed job's reservation).
 * Never takes usage below zero.
 */
export async function refundSeconds(tx: Tx, userId: string, seconds: number, periodStart: Date): Promise<void> {
  if (seconds <= 0) return;
  await tx.$executeRaw`
    UPDATE "UsagePeriod" SET "usedSeconds" = GREATEST("usedSeconds" - ${seconds}, 0), "updatedAt" = now()
    WHERE "userId" = ${userId} AND "periodStart" = ${periodStart}`;
}

/** The sentence refusing a charge of `seconds` that did not fit the user's allowance (see allowanceShortSentence). */
export async function allowanceRefusal(tx: Tx, userId: string, what: string, seconds: number): Promise<string> {
  const plan = await usagePlan(tx, userId);
  return allowanceShortSentence(what, seconds, plan.tier);
}
