import type { Prisma } from "@/lib/generated/prisma/client";
import { calendarMonth, TIER_ALLOWANCE_SECONDS, type UsageWindow } from "@/lib/usage/allowance";

type Tx = Prisma.TransactionClient;

export interface UsagePlan {
  tier: keyof typeof TIER_ALLOWANCE_SECONDS;
  limitSeconds: number;
  window: UsageWindow;
}

/** The caller's tier, limit and current period, read inside the transaction that charges. */
export async function usagePlan(tx: Tx, userId: string, now = new Date()): Promise<UsagePlan> {
  const subscription = await tx.subscription.findUnique({ where: { userId }, select: { tier: true } });
  const tier = subscription?.tier ?? "free";
  return { tier, limitSeconds: TIER_ALLOWANCE_SECONDS[tier], window: calendarMonth(now) };
}

/**
 * Adds `seconds` to the user's usage for the current period if it stays within the limit.
 * One conditional UPDATE, so concurrent charges can never take usage past the limit.
 * Returns false (and changes nothing) when there is not enough allowance left.
 */
export async function chargeSeconds(tx: Tx, userId: string, seconds: number, now = new Date()): Promise<boolean> {
  const plan = await usagePlan(tx, userId, now);
  const { start, end } = plan.window;
  await tx.$executeRaw`
    INSERT INTO "UsagePeriod" ("id", "userId", "periodStart", "periodEnd", "usedSeconds", "updatedAt")
    VALUES (${`up_${userId}_${start.getTime()}`}, ${userId}, ${start}, ${end}, 0, now())
    ON CONFLICT ("userId", "periodStart") DO NOTHING`;
  if (seconds <= 0) return true;
  const updated = await tx.$executeRaw`
    UPDATE "UsagePeriod" SET "usedSeconds" = "usedSeconds" + ${seconds}, "updatedAt" = now()
    WHERE "userId" = ${userId} AND "periodStart" = ${start} AND "usedSeconds" + ${seconds} <= ${plan.limitSeconds}`;
  return updated === 1;
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
