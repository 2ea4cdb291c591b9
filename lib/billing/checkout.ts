import type Stripe from "stripe";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { tierPriceIds } from "@/lib/billing/prices";
import { requireStripe, stripeOperation, type PaidTier } from "@/lib/billing/stripe";
import { currentSubscription, readSubscriptions, syncCustomer } from "@/lib/billing/sync";

/** Where Stripe sends the browser back to: the dashboard's billing page. */
export function billingPageUrl(query = ""): string {
  return new URL(`/dashboard/billing${query}`, env().APP_URL).toString();
}

/**
 * The user's Stripe customer, created on first need and reused. Concurrent first calls send the same
 * idempotency key, so Stripe creates one customer and answers both with it.
 */
export async function ensureCustomer(stripe: Stripe, userId: string): Promise<string> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { stripeCustomerId: true } });
  if (row?.stripeCustomerId) return row.stripeCustomerId;
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
  const customer = await stripe.customers.create(
    { email: user.email ?? undefined, name: user.name ?? undefined, metadata: { user_id: userId } },
    { idempotencyKey: `verbatim-customer-${userId}` },
  );
  const link = () => db.$executeRaw`
    INSERT INTO "Subscription" ("id", "userId", "tier", "stripeCustomerId", "cancelAtPeriodEnd", "createdAt", "updatedAt")
    VALUES (${`sub_${userId}`}, ${userId}, 'free', ${customer.id}, false, now(), now())
    ON CONFLICT ("userId") DO UPDATE SET "stripeCustomerId" = COALESCE("Subscription"."stripeCustomerId", EXCLUDED."stripeCustomerId"), "updatedAt" = now()`;
  // ON CONFLICT spares only its arbiter index: two first calls inserting at once can still meet on the primary
  // key ("sub_<user>"). The loser's second try finds the winner's committed row and takes the update.
  await link().catch((error: unknown) => (isUniqueViolation(error) ? link() : Promise.reject(error)));
  const linked = await db.subscription.findUniqueOrThrow({ where: { userId }, select: { stripeCustomerId: true } });
  return linked.stripeCustomerId!;
}

/** PostgreSQL's unique_violation (23505), as Prisma reports it from a raw statement. */
function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /\b23505\b/.test(error.message);
}

/** POST /v1/checkout: a Stripe Checkout Session for a first subscription to `tier`. */
export function createCheckout(userId: string, tier: PaidTier): Promise<{ url: string }> {
  return stripeOperation("checkout", async () => {
    const { stripe, config } = requireStripe();
    const customerId = await ensureCustomer(stripe, userId);
    // Stripe, not our row, decides: a subscription whose webhook has not arrived yet counts too.
    if (currentSubscription(await readSubscriptions(stripe, customerId))) {
      await syncCustomer(stripe, config, customerId);
      throw errors.conflict(
        "already_subscribed",
        "You already have a subscription. Use POST /v1/me/subscription/change to switch tiers, or the customer portal to manage it.",
      );
    }
    const prices = await tierPriceIds(stripe, config);
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customerId,
      line_items: [{ price: prices[tier], quantity: 1 }],
      allow_promotion_codes: true,
      client_reference_id: userId,
      metadata: { user_id: userId, tier },
      subscription_data: { metadata: { user_id: userId } },
      success_url: `${billingPageUrl("?checkout=success")}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: billingPageUrl("?checkout=canceled"),
    });
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { url: session.url };
  });
}
