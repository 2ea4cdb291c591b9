import { env } from "@/lib/env";
import type { Tier } from "@/lib/generated/prisma/client";

// Monthly allowances in seconds. Free is the contract's 15 minutes; the paid tiers are settings
// (PRO_ALLOWANCE_SECONDS, ULTRA_ALLOWANCE_SECONDS), read when asked for.
export const TIER_ALLOWANCE_SECONDS: Record<Tier, number> = {
  free: 900,
  get pro() {
    return env().PRO_ALLOWANCE_SECONDS;
  },
  get ultra() {
    return env().ULTRA_ALLOWANCE_SECONDS;
  },
};

export interface UsageWindow {
  start: Date;
  end: Date;
}

/** The free tier's period: the current UTC calendar month. */
export function calendarMonth(now: Date = new Date()): UsageWindow {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * A paid tier's period: the Stripe billing period stored at the last sync. When it has ended and the
 * renewal has not reached us yet, the next periods of the same length follow it (Stripe's periods are
 * contiguous, so the renewal's start is the stored end), so usage resets on time either way.
 */
export function billingPeriod(stored: UsageWindow, now: Date = new Date()): UsageWindow {
  const length = stored.end.getTime() - stored.start.getTime();
  if (length <= 0 || now < stored.end) return stored;
  const elapsed = Math.floor((now.getTime() - stored.end.getTime()) / length) + 1;
  return {
    start: new Date(stored.start.getTime() + elapsed * length),
    end: new Date(stored.end.getTime() + elapsed * length),
  };
}
