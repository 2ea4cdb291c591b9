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
