import { env } from "@/lib/env";

/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 6 * 3600_000;

/**
 * The wait after failed attempt `attempt` (1-based): EXPORT_RETRY_BASE_MS × 3^(attempt-1), at most 6 h, ±20 %
 * jitter; never less than what the destination asked for (Notion's Retry-After).
 */
export function retryDelayMs(attempt: number, askedMs: number | null = null, random: () => number = Math.random) {
  const base = Math.min(MAX_RETRY_DELAY_MS, env().EXPORT_RETRY_BASE_MS * 3 ** Math.max(0, attempt - 1));
  return Math.max(askedMs ?? 0, Math.round(base * (0.8 + 0.4 * random())));
}
