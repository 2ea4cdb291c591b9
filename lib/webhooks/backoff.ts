import { env } from "@/lib/env";

/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 6 * 3600_000;

/**
 * The wait after failed attempt `attempt` (1-based): WEBHOOK_RETRY_BASE_MS × 3^(attempt-1), at most 6 h,
 * ±20 % jitter so that a receiver coming back is not hit by every retry at once. With the defaults (10 s,
 * 12 attempts) the last attempt comes about a day after the first.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, env().WEBHOOK_RETRY_BASE_MS * 3 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
