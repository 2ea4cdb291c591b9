import { getDb } from "@/lib/db/client";
import { UNLIMITED_LIMIT_SECONDS } from "@/lib/usage/allowance";
import { usagePlan, usedSeconds } from "@/lib/usage/charge";
import type { SubscriptionResponse } from "@/lib/usage/schemas";

/**
 * The caller's tier, allowance and usage for the current period, and the billing state stored at the last
 * sync with Stripe (lib/billing/sync.ts). No Stripe call: reconcile asks Stripe.
 */
export async function getSubscription(userId: string): Promise<SubscriptionResponse> {
  const db = await getDb();
  const plan = await usagePlan(db, userId);
  const row = await db.subscription.findUnique({
    where: { userId },
    select: { cancelAtPeriodEnd: true, pendingTier: true, pendingChangeAt: true, paymentState: true },
  });
  return {
    tier: plan.tier,
    limit_seconds: plan.limitSeconds ?? UNLIMITED_LIMIT_SECONDS,
    unlimited: plan.limitSeconds === null,
    used_seconds: await usedSeconds(db, userId, plan.window),
    cancel_at_period_end: row?.cancelAtPeriodEnd ?? false,
    current_period_end: plan.window.end.toISOString(),
    pending_tier: row?.pendingTier ?? null,
    pending_change_at: row?.pendingChangeAt?.toISOString() ?? null,
    payment_state: row?.paymentState ?? null,
  };
}
