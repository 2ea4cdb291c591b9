import { env, type Env } from "@/lib/env";

type Settings = Pick<Env, "FOLLOW_CHECK_MINUTES" | "FOLLOW_MAX_BACKOFF_HOURS">;
type PushSettings = Pick<Env, "FOLLOW_PUSH_POLL_HOURS">;

const MINUTE = 60_000;

/** ±10%: follows made together do not all check together. */
function jitter(ms: number, random: () => number): number {
  return Math.round(ms * (0.9 + 0.2 * random()));
}

/** When the next scheduled check is due after a good one. */
export function nextCheckAfterSuccess(now = new Date(), random = Math.random, settings: Settings = env()): Date {
  return new Date(now.getTime() + jitter(settings.FOLLOW_CHECK_MINUTES * MINUTE, random));
}

/**
 * While a WebSub lease is live: a fallback poll after FOLLOW_PUSH_POLL_HOURS, but no later than an hour before the
 * lease ends, so that the check that renews it (within push-subscribe.ts's two hours) comes in time.
 */
export function nextCheckWhilePushed(
  leaseEndsAt: Date,
  now = new Date(),
  random = Math.random,
  settings: PushSettings = env(),
): Date {
  const poll = now.getTime() + jitter(settings.FOLLOW_PUSH_POLL_HOURS * 60 * MINUTE, random);
  return new Date(Math.max(now.getTime() + MINUTE, Math.min(poll, leaseEndsAt.getTime() - 60 * MINUTE)));
}

/** After `failures` failed checks in a row (1 for the first): the interval doubled per failure, capped. */
export function nextCheckAfterFailure(
  failures: number,
  now = new Date(),
  random = Math.random,
  settings: Settings = env(),
): Date {
  const base = settings.FOLLOW_CHECK_MINUTES * MINUTE;
  const cap = settings.FOLLOW_MAX_BACKOFF_HOURS * 60 * MINUTE;
  const ms = Math.min(cap, base * 2 ** Math.min(20, Math.max(0, failures - 1)));
  return new Date(now.getTime() + jitter(ms, random));
}

/** While a publishing follow's items are being transcribed, the chain settles them this soon (without fetching the feed). */
export const SETTLE_MS = 5_000;
