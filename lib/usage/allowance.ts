import { env, stripeSettingsComplete, type Env } from "@/lib/env";
import type { Tier } from "@/lib/generated/prisma/client";
import { spokenDuration } from "@/lib/formats/spoken-duration";

// Monthly allowances in seconds belong to the operator. Each tier's figure is a setting
// (FREE_/PRO_/ULTRA_ALLOWANCE_SECONDS). Unset, the hosted service's figures apply when billing is on (free is
// the contract's 15 minutes); with billing off there is nothing to upgrade to, so an unset tier has no limit.

/** The hosted service's allowances, used when billing is on and the tier's setting is unset. */
export const BILLING_DEFAULT_ALLOWANCE_SECONDS: Record<Tier, number> = { free: 900, pro: 36_000, ultra: 180_000 };

/**
 * `limit_seconds` of an unlimited tier: the contract makes the field a required integer, so a client that
 * only knows the contract sees an allowance it never reaches (the largest 32-bit integer, safe in any JSON
 * client); `unlimited: true` says it plainly.
 */
export const UNLIMITED_LIMIT_SECONDS = 2_147_483_647;

const SETTING: Record<Tier, "FREE_ALLOWANCE_SECONDS" | "PRO_ALLOWANCE_SECONDS" | "ULTRA_ALLOWANCE_SECONDS"> = {
  free: "FREE_ALLOWANCE_SECONDS",
  pro: "PRO_ALLOWANCE_SECONDS",
  ultra: "ULTRA_ALLOWANCE_SECONDS",
};

/** The tier's monthly allowance in seconds, or null when no limit applies on this server. */
export function tierAllowanceSeconds(tier: Tier, settings: Env = env()): number | null {
  const set = settings[SETTING[tier]];
  if (set !== undefined) return set;
  return stripeSettingsComplete(settings) ? BILLING_DEFAULT_ALLOWANCE_SECONDS[tier] : null;
}

/** Every tier's allowance (null: no limit), as plain values a client component can take. */
export function tierAllowances(settings: Env = env()): Record<Tier, number | null> {
  return {
    free: tierAllowanceSeconds("free", settings),
    pro: tierAllowanceSeconds("pro", settings),
    ultra: tierAllowanceSeconds("ultra", settings),
  };
}

/**
 * The refusal when a charge does not fit: `what` is "This transcript", "This source is about", … With
 * billing on the fix is an upgrade; with billing off there is nothing to buy, the operator's setting is the limit.
 */
export function allowanceShortSentence(what: string, seconds: number, tier: Tier, settings: Env = env()): string {
  const fix = stripeSettingsComplete(settings)
    ? "Upgrade your plan or wait for the next period."
    : `This server's operator set the ${tier} allowance (${SETTING[tier]}); it renews at the start of the next period.`;
  return `${what} ${spokenDuration(seconds)} long, which is more than what is left of your monthly allowance. ${fix}`;
}

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
