import type { Tier } from "@/lib/generated/prisma/client";

// Monthly allowances in seconds. Free is the contract's 15 minutes; paid tiers become settings with billing.
export const TIER_ALLOWANCE_SECONDS: Record<Tier, number> = {
  free: 900,
  pro: 36_000,
  ultra: 180_000,
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
