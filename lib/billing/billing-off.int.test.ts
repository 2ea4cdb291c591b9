import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { signEvent } from "@/test/fakes/stripe/server";
import { bearer, callRoute } from "@/test/request";

// The embedded default: no Stripe settings and no allowance settings. Plans are static, everyone is free with
// no limit on this server, and the operations that need Stripe say so with 503 billing_not_configured.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let key: string;
let userId: string;

beforeAll(async () => {
  for (const name of [
    "STRIPE_SECRET_KEY",
    "STRIPE_PRICE_PRO",
    "STRIPE_PRICE_ULTRA",
    "STRIPE_WEBHOOK_SECRET",
    "FREE_ALLOWANCE_SECONDS", // set for the other integration files (vitest.integration.config.ts)
  ])
    delete process.env[name];
  ctx = await useTestDatabase();
  const user = await createUser(ctx.db);
  userId = user.id;
  key = (await (await import("@/lib/auth/api-keys")).ensureApiKey(user.id)).key!;
});
afterAll(async () => ctx?.teardown());

describe("billing off", () => {
  it("checkout, portal, cancel, resume, change and undo answer 503 billing_not_configured", async () => {
    const auth = bearer(key);
    const calls = [
      callRoute((await import("@/app/v1/checkout/route")).POST, "/v1/checkout", {
        headers: auth,
        body: { tier: "pro" },
      }),
      callRoute((await import("@/app/v1/me/portal/route")).POST, "/v1/me/portal", { method: "POST", headers: auth }),
      callRoute((await import("@/app/v1/me/subscription/cancel/route")).POST, "/v1/me/subscription/cancel", {
        method: "POST",
        headers: auth,
      }),
      callRoute((await import("@/app/v1/me/subscription/resume/route")).POST, "/v1/me/subscription/resume", {
        method: "POST",
        headers: auth,
      }),
      callRoute((await import("@/app/v1/me/subscription/change/route")).POST, "/v1/me/subscription/change", {
        headers: auth,
        body: { tier: "ultra" },
      }),
      callRoute((await import("@/app/v1/me/subscription/change/route")).DELETE, "/v1/me/subscription/change", {
        method: "DELETE",
        headers: auth,
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        detail: expect.stringContaining("STRIPE_SECRET_KEY"),
        code: "billing_not_configured",
      });
    }
    expect(await ctx.db.subscription.findUnique({ where: { userId } })).toBeNull();
  });

  it("reconcile is a no-op and the subscription is free, with no limit", async () => {
    const reconcile = await callRoute(
      (await import("@/app/v1/me/subscription/reconcile/route")).POST,
      "/v1/me/subscription/reconcile",
      { method: "POST", headers: bearer(key) },
    );
    expect(reconcile.status).toBe(200);
    expect(reconcile.json).toMatchObject({
      tier: "free",
      limit_seconds: 2_147_483_647,
      unlimited: true,
      cancel_at_period_end: false,
      pending_tier: null,
      payment_state: null,
    });
    const get = await callRoute((await import("@/app/v1/me/subscription/route")).GET, "/v1/me/subscription", {
      headers: bearer(key),
    });
    expect(get.json).toEqual(reconcile.json);
  });

  it("with no limit, a charge of any length goes through in one conditional update and is still counted", async () => {
    const { chargeSeconds, refundSeconds } = await import("@/lib/usage/charge");
    const { getSubscription } = await import("@/lib/usage/get-subscription");
    const user = await createUser(ctx.db);
    const period = await ctx.db.$transaction((tx) => chargeSeconds(tx, user.id, 4283));
    expect(period).not.toBeNull();
    await Promise.all(Array.from({ length: 5 }, () => ctx.db.$transaction((tx) => chargeSeconds(tx, user.id, 9868))));
    expect(await getSubscription(user.id)).toMatchObject({ unlimited: true, used_seconds: 4283 + 5 * 9868 });
    await ctx.db.$transaction((tx) => refundSeconds(tx, user.id, 4283, period!.start));
    expect((await getSubscription(user.id)).used_seconds).toBe(5 * 9868);
  });

  it("the webhook answers 503 and stores nothing", async () => {
    const { body, header } = signEvent(
      { id: "evt_1", type: "customer.subscription.deleted", data: { object: { customer: "cus_1" } } },
      "whsec_x",
    );
    const res = await callRoute((await import("@/app/v1/webhooks/billing/route")).POST, "/v1/webhooks/billing", {
      headers: { "stripe-signature": header },
      body,
    });
    expect(res.status).toBe(503);
    expect(await ctx.db.webhookEvent.count()).toBe(0);
  });

  it("without credentials the account operations are 401, not 503", async () => {
    const res = await callRoute((await import("@/app/v1/checkout/route")).POST, "/v1/checkout", {
      body: { tier: "pro" },
    });
    expect(res.status).toBe(401);
  });
});
