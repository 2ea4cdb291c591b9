import { getDb } from "@/lib/db/client";
import { usagePlan, usedSeconds } from "@/lib/usage/charge";
import type { SubscriptionResponse } from "@/lib/usage/schemas";

/** The caller's tier and allowance for the current period. Billing fields stay at their defaults until Stripe. */
export async function getSubscription(userId: string): Promise<SubscriptionResponse> {
  const db = await getDb();
  const plan = await usagePlan(db, userId);
  return {
    tier: plan.tier,
    limit_seconds: plan.limitSeconds,
    used_seconds: await usedSeconds(db, userId, plan.window),
    cancel_at_period_end: false,
    current_period_end: plan.window.end.toISOString(),
    pending_tier: null,
    pending_change_at: null,
    payment_state: null,
  };
}
