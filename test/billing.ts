import Stripe from "stripe";
import { expect } from "vitest";
import type { SubscriptionResponse } from "@/lib/usage/schemas";
import { createUser, useTestDatabase } from "@/test/app-db";
import { signEvent, startFakeStripe, type FakeStripe } from "@/test/fakes/stripe/server";
import { bearer, callRoute } from "@/test/request";

// The billing tests' world: a migrated PostgreSQL database, the fake Stripe with the two tier prices, the
// app's settings pointing at it, and the billing routes called the way Next.js calls them.

export const WEBHOOK_SECRET = "whsec_billing_tests";

/** A route's answer that must be a 200 SubscriptionResponse. */
export async function ok(
  response: Promise<{ status: number; text: string; json: unknown }>,
): Promise<SubscriptionResponse> {
  const res = await response;
  expect(res.status, res.text).toBe(200);
  return res.json as SubscriptionResponse;
}
export const HOUR = 3600;

export async function startBillingWorld() {
  const fake = await startFakeStripe();
  const pro = fake.seedPrice({
    product: { name: "Verbatim Pro" },
    unit_amount: 900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "verbatim_pro",
  });
  const ultra = fake.seedPrice({
    product: { name: "Verbatim Ultra" },
    unit_amount: 2900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "verbatim_ultra",
  });
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: fake.apiKey,
    STRIPE_API_BASE: fake.origin,
    STRIPE_PRICE_PRO: "verbatim_pro",
    STRIPE_PRICE_ULTRA: ultra.id as string,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    APP_URL: "http://app.test",
  });
  // Settings are read once per process, so they are in place before the first module reads them.
  const database = await useTestDatabase();
  const routes = {
    checkout: (await import("@/app/v1/checkout/route")).POST,
    subscription: (await import("@/app/v1/me/subscription/route")).GET,
    reconcile: (await import("@/app/v1/me/subscription/reconcile/route")).POST,
    cancel: (await import("@/app/v1/me/subscription/cancel/route")).POST,
    resume: (await import("@/app/v1/me/subscription/resume/route")).POST,
    change: (await import("@/app/v1/me/subscription/change/route")).POST,
    undoChange: (await import("@/app/v1/me/subscription/change/route")).DELETE,
    portal: (await import("@/app/v1/me/portal/route")).POST,
    webhook: (await import("@/app/v1/webhooks/billing/route")).POST,
  };
  const { ensureApiKey } = await import("@/lib/auth/api-keys");

  /** A new user with an API key, and the billing API as that user. */
  async function customer() {
    const user = await createUser(database.db);
    const key = (await ensureApiKey(user.id)).key!;
    const auth = { headers: bearer(key) };
    const post = (route: (typeof routes)[keyof typeof routes], path: string, body?: unknown) =>
      callRoute(route, path, { method: "POST", ...auth, ...(body === undefined ? {} : { body }) });
    return {
      user,
      checkout: (tier: unknown) => post(routes.checkout, "/v1/checkout", tier === undefined ? {} : { tier }),
      subscription: () => callRoute(routes.subscription, "/v1/me/subscription", auth),
      reconcile: () => post(routes.reconcile, "/v1/me/subscription/reconcile"),
      cancel: () => post(routes.cancel, "/v1/me/subscription/cancel"),
      resume: () => post(routes.resume, "/v1/me/subscription/resume"),
      change: (tier: unknown) => post(routes.change, "/v1/me/subscription/change", tier === undefined ? {} : { tier }),
      undoChange: () => callRoute(routes.undoChange, "/v1/me/subscription/change", { method: "DELETE", ...auth }),
      portal: () => post(routes.portal, "/v1/me/portal"),
      /** The Subscription row as stored. */
      row: () => database.db.subscription.findUnique({ where: { userId: user.id } }),
    };
  }

  /** POSTs an event to the webhook route, signed like Stripe (optionally with another secret or time). */
  function sendWebhook(event: object | string, options: { secret?: string; timestamp?: number; header?: string } = {}) {
    const { body, header } = signEvent(event, options.secret ?? WEBHOOK_SECRET, options.timestamp);
    return callRoute(routes.webhook, "/v1/webhooks/billing", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": options.header ?? header },
      body,
    });
  }

  /** Delivers events in order and expects each to be accepted. */
  async function deliver(events: object[]) {
    const answers = [];
    for (const event of events) {
      const res = await sendWebhook(event);
      expect(res.status, res.text).toBe(200);
      answers.push(res.json as { outcome: string; effect: string | null });
    }
    return answers;
  }

  /** Checkout through the API, then the customer pays at the fake and the events arrive. */
  async function subscribe(
    account: Awaited<ReturnType<typeof customer>>,
    tier: "pro" | "ultra",
    options: { promotionCode?: string } = {},
  ) {
    const res = await account.checkout(tier);
    expect(res.status, res.text).toBe(200);
    const sessionId = new URL((res.json as { url: string }).url).pathname.split("/").pop()!;
    const done = fake.completeCheckout(sessionId, options);
    await deliver(done.events);
    return { sessionId, subscriptionId: done.subscription!.id as string, events: done.events };
  }

  /** A new user whose Checkout for `tier` is paid and whose events have all been delivered. */
  async function subscribed(tier: "pro" | "ultra" = "pro") {
    const account = await customer();
    const { subscriptionId } = await subscribe(account, tier);
    return { account, subscriptionId };
  }

  /** The end of a subscription's current period at Stripe (on its item, with this API version), as ISO. */
  function periodEnd(subscriptionId: string): string {
    const item = (fake.object(subscriptionId).items as { data: { current_period_end: number }[] }).data[0];
    return new Date(item.current_period_end * 1000).toISOString();
  }

  return {
    db: database.db,
    fake,
    /** The real SDK against the fake, for reading and changing what Stripe has (no retries). */
    stripe: new Stripe(fake.apiKey, {
      host: fake.host,
      port: fake.port,
      protocol: fake.protocol,
      maxNetworkRetries: 0,
    }),
    prices: { pro: pro.id as string, ultra: ultra.id as string },
    routes,
    customer,
    sendWebhook,
    deliver,
    subscribe,
    subscribed,
    periodEnd,
    async teardown() {
      for (const name of [
        "STRIPE_SECRET_KEY",
        "STRIPE_API_BASE",
        "STRIPE_PRICE_PRO",
        "STRIPE_PRICE_ULTRA",
        "STRIPE_WEBHOOK_SECRET",
        "APP_URL",
      ])
        delete process.env[name];
      await fake.close();
      await database.teardown();
    },
  };
}

export type BillingWorld = Awaited<ReturnType<typeof startBillingWorld>>;
export type BillingCustomer = Awaited<ReturnType<BillingWorld["customer"]>>;
export type { FakeStripe };
