// When a GET or HEAD is tried again: after a retryable network error or one of these statuses, with doubling
// waits, or the server's Retry-After, capped.
export const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Retry-After in ms (delta-seconds or HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** The wait before retry number `attempt + 1`: the server's Retry-After when it sent one, else doubling from the base. */
export function retryDelay(
  attempt: number,
  opts: { retryBaseDelayMs: number; maxRetryDelayMs: number },
  retryAfter: string | null = null,
): number {
  return Math.min(parseRetryAfter(retryAfter) ?? opts.retryBaseDelayMs * 2 ** attempt, opts.maxRetryDelayMs);
}
