import type Stripe from "stripe";
import { getDb } from "@/lib/db/client";
import { ApiError, errors } from "@/lib/http/errors";
import { getSubscription } from "@/lib/usage/get-subscription";
import type { SubscriptionResponse } from "@/lib/usage/schemas";
import { billingPageUrl } from "@/lib/billing/checkout";
import { tierOfPrice, tierPriceIds } from "@/lib/billing/prices";
import { isUpgrade } from "@/lib/billing/tiers";
import {
  billingConfig,
  getStripe,
  requireStripe,
  stripeOperation,
  type BillingConfig,
  type PaidTier,
} from "@/lib/billing/stripe";
import { currentSubscription, readSubscriptions, syncCustomer } from "@/lib/billing/sync";

// The subscription operations under /v1/me/subscription and /v1/me/portal. Each one changes Stripe, then
// reads the customer back (syncCustomer) so the answer is current without waiting for the webhook.

async function customerOf(userId: string): Promise<string | null> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { stripeCustomerId: true } });
  return row?.stripeCustomerId ?? null;
}

interface Live {
  stripe: Stripe;
  config: BillingConfig;
  customerId: string;
  subscription: Stripe.Subscription;
}

/** The caller's current Stripe subscription, or 409 `no_subscription`. */
async function liveSubscription(userId: string): Promise<Live> {
  const { stripe, config } = requireStripe();
  const customerId = await customerOf(userId);
  const subscription = customerId ? currentSubscription(await readSubscriptions(stripe, customerId)) : null;
  if (!customerId || !subscription) {
    throw errors.conflict(
      "no_subscription",
      "You have no subscription to change. Subscribe first with POST /v1/checkout.",
    );
  }
  return { stripe, config, customerId, subscription };
}

async function current(live: Live, userId: string): Promise<SubscriptionResponse> {
  await syncCustomer(live.stripe, live.config, live.customerId);
  return getSubscription(userId);
}

/** Drops a scheduled change: the subscription stays on its current price and is free of the schedule. */
async function releaseSchedule(live: Live): Promise<void> {
  const schedule = live.subscription.schedule;
  if (!schedule) return;
  const scheduleObject =
    typeof schedule === "string" ? await live.stripe.subscriptionSchedules.retrieve(schedule) : schedule;
  if (scheduleObject.status === "active" || scheduleObject.status === "not_started") {
    await live.stripe.subscriptionSchedules.release(scheduleObject.id);
  }
}

/** POST /v1/me/subscription/reconcile: the tier Stripe grants now; a no-op without billing or a customer. */
export function reconcileSubscription(userId: string): Promise<SubscriptionResponse> {
  return stripeOperation("reconcile", async () => {
    const config = billingConfig();
    const stripe = getStripe(config);
    const customerId = await customerOf(userId);
    if (config && stripe && customerId) await syncCustomer(stripe, config, customerId);
    return getSubscription(userId);
  });
}

/** POST /v1/me/subscription/cancel: cancel at the period end; the tier is kept until then. */
export function cancelSubscription(userId: string): Promise<SubscriptionResponse> {
  return stripeOperation("cancel", async () => {
    const live = await liveSubscription(userId);
    if (!live.subscription.cancel_at_period_end) {
      // Stripe refuses a cancel on a subscription a schedule manages; a pending change is moot anyway.
      await releaseSchedule(live);
      await live.stripe.subscriptions.update(live.subscription.id, { cancel_at_period_end: true });
    }
    return current(live, userId);
  });
}

/** POST /v1/me/subscription/resume: the scheduled cancel is dropped and renewal goes on. */
export function resumeSubscription(userId: string): Promise<SubscriptionResponse> {
  return stripeOperation("resume", async () => {
    const live = await liveSubscription(userId);
    const { cancel_at_period_end: atPeriodEnd, cancel_at: cancelAt } = live.subscription;
    if (atPeriodEnd || cancelAt !== null) {
      await live.stripe.subscriptions.update(live.subscription.id, {
        cancel_at_period_end: false,
        ...(cancelAt !== null && !atPeriodEnd ? { cancel_at: "" } : {}),
      });
    }
    return current(live, userId);
  });
}

/**
 * POST /v1/me/subscription/change: an upgrade switches the price now and invoices the prorated difference;
 * a downgrade is a subscription schedule whose next phase, at the period end, is the lower price.
 */
export function changeTier(userId: string, tier: PaidTier): Promise<SubscriptionResponse> {
  return stripeOperation("change", async () => {
    const live = await liveSubscription(userId);
    const { stripe, config, subscription } = live;
    const ids = await tierPriceIds(stripe, config);
    const item = subscription.items.data[0];
    const from = item ? tierOfPrice(item.price, ids, config) : null;
    if (!item || !from)
      throw errors.conflict(
        "unknown_price",
        "Your subscription is on a price this service does not sell; change it in the customer portal.",
      );

    if (from === tier) {
      // Asking for the tier you are on undoes a scheduled change; otherwise there is nothing to do.
      if (!subscription.schedule) throw errors.conflict("same_tier", `You are already on ${tier}.`);
      await releaseSchedule(live);
    } else if (isUpgrade(from, tier)) {
      await releaseSchedule(live);
      await stripe.subscriptions.update(subscription.id, {
        items: [{ id: item.id, price: ids[tier] }],
        proration_behavior: "always_invoice",
      });
    } else {
      if (subscription.cancel_at_period_end || subscription.cancel_at !== null) {
        throw errors.conflict(
          "cancel_scheduled",
          "Your subscription is set to end at the period end. Resume it before scheduling a change.",
        );
      }
      await scheduleDowngrade(live, item, ids[tier]);
    }
    return current(live, userId);
  });
}

async function scheduleDowngrade(live: Live, item: Stripe.SubscriptionItem, priceId: string): Promise<void> {
  const { stripe, subscription } = live;
  const scheduleId =
    typeof subscription.schedule === "string"
      ? subscription.schedule
      : (subscription.schedule?.id ??
        (await stripe.subscriptionSchedules.create({ from_subscription: subscription.id })).id);
  const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId);
  const now =
    schedule.phases.find((phase) => phase.start_date <= Date.now() / 1000 && Date.now() / 1000 < phase.end_date) ??
    schedule.phases[0];
  const recurring = item.price.recurring;
  await stripe.subscriptionSchedules.update(scheduleId, {
    end_behavior: "release",
    proration_behavior: "none",
    phases: [
      {
        items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
        start_date: now.start_date,
        end_date: item.current_period_end,
      },
      {
        items: [{ price: priceId, quantity: item.quantity ?? 1 }],
        duration: { interval: recurring?.interval ?? "month", interval_count: recurring?.interval_count ?? 1 },
      },
    ],
  });
}

/** DELETE /v1/me/subscription/change: the scheduled change is dropped; a scheduled cancel stays. */
export function undoTierChange(userId: string): Promise<SubscriptionResponse> {
  return stripeOperation("undo change", async () => {
    const live = await liveSubscription(userId);
    await releaseSchedule(live);
    return current(live, userId);
  });
}

/** POST /v1/me/portal: a short-lived Stripe customer portal session, or 404 without a Stripe customer. */
export function createPortalSession(userId: string): Promise<{ url: string }> {
  return stripeOperation("portal", async () => {
    const { stripe } = requireStripe();
    const customerId = await customerOf(userId);
    if (!customerId)
      throw new ApiError("no_billing_account", "You have no billing account yet. Subscribe to a plan first.");
    const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: billingPageUrl() });
    return { url: session.url };
  });
}
