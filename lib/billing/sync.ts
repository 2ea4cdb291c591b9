import type Stripe from "stripe";
import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { getDb } from "@/lib/db/client";
import type { Prisma, Tier } from "@/lib/generated/prisma/client";
import { calendarMonth } from "@/lib/usage/allowance";
import { openPeriod, usedSeconds } from "@/lib/usage/charge";
import { lockActiveReservations, moveReservations } from "@/lib/usage/reservation";
import { tierOfPrice, tierPriceIds } from "@/lib/billing/prices";
import type { BillingConfig, PaidTier } from "@/lib/billing/stripe";
import { log } from "@/lib/observability/logger";

// Stripe is the truth about what a customer pays for. Every change — a webhook, an API operation, a
// reconcile — ends here: read the customer's subscriptions from Stripe and write what they grant onto the
// user's Subscription row. Stripe is read first, outside any transaction; the write is one short transaction
// under the customer's advisory lock that keeps a state only if it was read later than the stored one, so
// whatever order events arrive in, the stored state is the newest read.

/** Statuses under which Stripe grants the subscription's tier. */
const GRANTING = new Set<Stripe.Subscription.Status>(["active", "trialing", "past_due"]);
/** Statuses of a subscription that still exists for the customer (a new Checkout would be a second one). */
const CURRENT = new Set<Stripe.Subscription.Status>([...GRANTING, "unpaid", "incomplete", "paused"]);

export type PaymentState = "ok" | "payment_failed" | "past_due" | "unpaid" | "incomplete";

/** What Stripe grants a customer right now, in the Subscription row's terms. */
export interface BillingState {
  tier: Tier;
  status: string | null;
  stripeSubscriptionId: string | null;
  stripeScheduleId: string | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  pendingTier: Tier | null;
  pendingChangeAt: Date | null;
  paymentState: PaymentState | null;
}

const date = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000) : null);
const idOf = (ref: string | { id: string } | null | undefined) =>
  ref ? (typeof ref === "string" ? ref : ref.id) : null;

/** The subscription that matters: the newest one that still exists, else none. */
export function currentSubscription(subscriptions: Stripe.Subscription[]): Stripe.Subscription | null {
  return [...subscriptions].sort((a, b) => b.created - a.created).find((s) => CURRENT.has(s.status)) ?? null;
}

/** Whether a stored subscription status is one that still exists for the customer and may bill it. */
export function isCurrentStatus(status: string | null): boolean {
  return CURRENT.has(status as Stripe.Subscription.Status);
}

function paymentState(subscription: Stripe.Subscription): PaymentState {
  if (subscription.status === "past_due") return "past_due";
  if (subscription.status === "unpaid") return "unpaid";
  if (subscription.status === "incomplete") return "incomplete";
  const invoice = subscription.latest_invoice;
  if (invoice && typeof invoice !== "string" && invoice.status === "open" && invoice.attempt_count > 0)
    return "payment_failed";
  return "ok";
}

/** A scheduled change of price: the first later phase whose price grants another tier. */
function pendingChange(
  subscription: Stripe.Subscription,
  current: PaidTier | null,
  ids: Record<PaidTier, string>,
  config: BillingConfig,
): { tier: Tier; at: Date } | null {
  const schedule = subscription.schedule;
  if (!schedule || typeof schedule === "string" || !["active", "not_started"].includes(schedule.status)) return null;
  const now = Math.floor(Date.now() / 1000);
  const later = schedule.phases.filter((phase) => phase.start_date > now).sort((a, b) => a.start_date - b.start_date);
  for (const phase of later) {
    const price = phase.items[0]?.price;
    const tier = price ? tierOfPrice(typeof price === "string" ? price : price.id, ids, config) : null;
    if (tier && tier !== current) return { tier, at: new Date(phase.start_date * 1000) };
  }
  return null;
}

/** Maps the customer's subscriptions to the state we store (pure: the caller reads Stripe). */
export function billingState(
  subscriptions: Stripe.Subscription[],
  ids: Record<PaidTier, string>,
  config: BillingConfig,
): BillingState {
  const subscription = currentSubscription(subscriptions);
  if (!subscription) {
    return {
      tier: "free",
      status: subscriptions[0]?.status ?? null,
      stripeSubscriptionId: null,
      stripeScheduleId: null,
      cancelAtPeriodEnd: false,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      pendingTier: null,
      pendingChangeAt: null,
      paymentState: null,
    };
  }
  const item = subscription.items.data[0];
  const paidTier = item ? tierOfPrice(item.price, ids, config) : null;
  if (item && !paidTier)
    log.warn(
      { subscription: subscription.id, price: item.price.id },
      "subscription is on a price that is neither tier's: treated as free",
    );
  const pending = pendingChange(subscription, paidTier, ids, config);
  return {
    tier: paidTier && GRANTING.has(subscription.status) ? paidTier : "free",
    status: subscription.status,
    stripeSubscriptionId: subscription.id,
    stripeScheduleId: idOf(subscription.schedule),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    pendingTier: pending?.tier ?? null,
    pendingChangeAt: pending?.at ?? null,
    paymentState: paymentState(subscription),
  };
}

/** The customer's subscriptions as Stripe has them now, with what the mapping needs expanded. */
export async function readSubscriptions(stripe: Stripe, customerId: string): Promise<Stripe.Subscription[]> {
  const list = await stripe.subscriptions.list({
    customer: customerId,
    status: "all",
    limit: 20,
    expand: ["data.schedule", "data.latest_invoice"],
  });
  return list.data;
}

/** The contract's event kind for a change of the stored row, for logs and the webhook's answer. */
export type BillingEffect =
  | "subscription.canceled"
  | "subscription.revoked"
  | "subscription.updated"
  | "subscription.resumed"
  | null;

function effectOf(before: { tier: Tier; cancelAtPeriodEnd: boolean }, after: BillingState): BillingEffect {
  if (before.tier !== "free" && after.tier === "free") return "subscription.revoked";
  if (before.tier !== after.tier) return "subscription.updated";
  if (!before.cancelAtPeriodEnd && after.cancelAtPeriodEnd) return "subscription.canceled";
  if (before.cancelAtPeriodEnd && !after.cancelAtPeriodEnd) return "subscription.resumed";
  return null;
}

type Tx = Prisma.TransactionClient;

export interface SyncOptions {
  /** A webhook event: recorded in the same transaction, and nothing is done if it already was. */
  event?: { id: string; type: string };
}

export type SyncResult =
  | { outcome: "applied"; userId: string; effect: BillingEffect }
  | { outcome: "duplicate" }
  | { outcome: "unknown_customer" };

/**
 * Reads the customer from Stripe, then stores what it grants in one short transaction under the customer's
 * advisory lock, with the event row (if any). No Stripe call happens while a transaction is open: a slow or
 * retrying Stripe holds no pooled connection and no lock.
 *
 * Out-of-order and concurrent syncs converge by read time: the database's clock is read before Stripe is,
 * and stored with the state (`stripeReadAt`). Under the lock, a sync whose read began before the stored
 * one's is stale and changes nothing: the stored state was read later, so it already includes whatever
 * caused this sync. Its event is still recorded (once). Throws when Stripe or the database fails: nothing is
 * stored then, and a webhook answers 500 so that Stripe delivers it again.
 */
export async function syncCustomer(
  stripe: Stripe,
  config: BillingConfig,
  customerId: string,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const db = await getDb();
  if (options.event && (await db.webhookEvent.findUnique({ where: { id: options.event.id }, select: { id: true } }))) {
    return { outcome: "duplicate" };
  }
  const ids = await tierPriceIds(stripe, config);
  const [{ readAt }] = await db.$queryRaw<{ readAt: Date }[]>`SELECT clock_timestamp() AS "readAt"`;
  const linked = await db.subscription.findUnique({
    where: { stripeCustomerId: customerId },
    select: { userId: true },
  });
  const claimedBy = linked ? null : await customerUserId(stripe, customerId);
  const state = billingState(await readSubscriptions(stripe, customerId), ids, config);
  return db.$transaction(
    async (tx) => {
      await lockUntilCommit(tx, `billing:${customerId}`);
      // Before the event row: an event that applies to no one is not recorded, so a redelivery once the
      // customer is ours (metadata fixed at Stripe) is applied, not dropped as a duplicate.
      const userId = await userOfCustomer(tx, customerId, claimedBy);
      if (!userId) return { outcome: "unknown_customer" as const };
      if (options.event) {
        const inserted = await tx.$executeRaw`
          INSERT INTO "WebhookEvent" ("id", "provider", "type", "processedAt") VALUES (${options.event.id}, 'stripe', ${options.event.type}, now())
          ON CONFLICT ("id") DO NOTHING`;
        if (inserted === 0) return { outcome: "duplicate" as const };
      }
      const stored = await tx.subscription.findUnique({ where: { userId }, select: { stripeReadAt: true } });
      if (stored?.stripeReadAt && stored.stripeReadAt > readAt)
        return { outcome: "applied" as const, userId, effect: null };
      const effect = await applyState(tx, userId, customerId, state, readAt);
      return { outcome: "applied" as const, userId, effect };
    },
    { timeout: 10_000, maxWait: 15_000 },
  );
}

/** The user id we put in the customer's metadata at Stripe (read before any transaction), or null. */
async function customerUserId(stripe: Stripe, customerId: string): Promise<string | null> {
  const customer = await stripe.customers.retrieve(customerId);
  return (customer.deleted ? undefined : customer.metadata?.user_id) || null;
}

/** The user a Stripe customer belongs to: our row, else the user named in the customer's metadata. */
async function userOfCustomer(tx: Tx, customerId: string, claimedBy: string | null): Promise<string | null> {
  const linked = await tx.subscription.findUnique({
    where: { stripeCustomerId: customerId },
    select: { userId: true },
  });
  if (linked) return linked.userId;
  if (!claimedBy) return null;
  const user = await tx.user.findUnique({ where: { id: claimedBy }, select: { id: true } });
  if (!user) return null;
  const row = await tx.subscription.findUnique({ where: { userId: claimedBy }, select: { stripeCustomerId: true } });
  // A user already linked to another customer keeps that link; this customer's events are not theirs.
  if (row?.stripeCustomerId && row.stripeCustomerId !== customerId) return null;
  return claimedBy;
}

async function applyState(
  tx: Tx,
  userId: string,
  customerId: string,
  state: BillingState,
  readAt: Date,
): Promise<BillingEffect> {
  const before = (await tx.subscription.findUnique({
    where: { userId },
    select: { tier: true, cancelAtPeriodEnd: true },
  })) ?? {
    tier: "free" as Tier,
    cancelAtPeriodEnd: false,
  };
  // The first paid period keeps what was used this month: an upgrade raises the limit, it does not reset
  // usage. Running jobs' reservations are part of that usage, so they move with it (settled and refunded
  // in the paid period); their rows are locked first, so no settle lands between the read and the move.
  if (before.tier === "free" && state.tier !== "free" && state.currentPeriodStart && state.currentPeriodEnd) {
    const month = calendarMonth();
    const jobs = await lockActiveReservations(tx, userId, month.start);
    const used = await usedSeconds(tx, userId, month);
    const paid = { start: state.currentPeriodStart, end: state.currentPeriodEnd };
    if (await openPeriod(tx, userId, paid, used)) await moveReservations(tx, jobs, paid.start);
  }
  const fields = { ...state, stripeCustomerId: customerId, stripeReadAt: readAt };
  await tx.subscription.upsert({ where: { userId }, create: { userId, ...fields }, update: fields });
  return effectOf(before, state);
}
