import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ok, startBillingWorld, type BillingWorld } from "@/test/billing";

// The contract's subscription table driven through the API, with the real SDK against the fake Stripe.
// Webhooks are delivered only where a test says so: the API's answers are read back from Stripe.

let world: BillingWorld;

beforeAll(async () => {
  world = await startBillingWorld();
});
afterEach(() => world.fake.clearFaults());
afterAll(async () => world?.teardown());

describe("POST /v1/checkout", () => {
  it("validates the tier (422 in FastAPI's shape)", async () => {
    const account = await world.customer();
    for (const tier of ["free", "gold", undefined, 3]) {
      const res = await account.checkout(tier);
      expect(res.status).toBe(422);
      expect((res.json as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(["body", "tier"]);
    }
    expect(await account.row()).toBeNull();
  });

  it("creates the Stripe customer once and reuses it, also for concurrent first calls", async () => {
    const account = await world.customer();
    const answers = await Promise.all([account.checkout("pro"), account.checkout("ultra"), account.checkout("pro")]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const customerId = (await account.row())!.stripeCustomerId!;
    const customers = await world.stripe.customers.list({ email: account.user.email!, limit: 10 });
    expect(customers.data.map((c) => c.id)).toEqual([customerId]);
    expect(customers.data[0].metadata).toEqual({ user_id: account.user.id });
    const sessionIds = answers.map((a) => new URL((a.json as { url: string }).url).pathname.split("/").pop()!);
    for (const id of sessionIds) expect(world.fake.object(id).customer).toBe(customerId);
    const prices = await Promise.all(
      sessionIds.map(async (id) => (await world.stripe.checkout.sessions.listLineItems(id)).data[0].price!.id),
    );
    expect(prices).toEqual([world.prices.pro, world.prices.ultra, world.prices.pro]);
  });

  it("answers 409 when the user already has a subscription, even before its webhook arrived", async () => {
    const { account } = await world.subscribed("pro");
    const res = await account.checkout("ultra");
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      code: "already_subscribed",
      detail: expect.stringContaining("/v1/me/subscription/change"),
    });

    const other = await world.customer();
    const first = await other.checkout("pro");
    const sessionId = new URL((first.json as { url: string }).url).pathname.split("/").pop()!;
    world.fake.completeCheckout(sessionId); // paid, but no webhook delivered
    const again = await other.checkout("pro");
    expect(again.status).toBe(409);
    // Answering 409 also stored what Stripe grants.
    expect((await ok(other.subscription())).tier).toBe("pro");
  });

  it("accepts a promotion code at Checkout", async () => {
    const coupon = world.fake.seedCoupon({ name: "Half", percent_off: 50, duration: "once" });
    world.fake.seedPromotionCode({ coupon: coupon.id as string, code: "HALF" });
    const account = await world.customer();
    const { subscriptionId } = await world.subscribe(account, "pro", { promotionCode: "HALF" });
    const invoices = await world.stripe.invoices.list({ subscription: subscriptionId });
    expect(invoices.data[0].total).toBe(450);
    expect((await ok(account.subscription())).tier).toBe("pro");
  });
});

describe("GET /v1/me/subscription", () => {
  it("is free with the calendar month's allowance before any billing", async () => {
    const account = await world.customer();
    const sub = await ok(account.subscription());
    expect(sub).toEqual({
      tier: "free",
      limit_seconds: 900,
      used_seconds: 0,
      cancel_at_period_end: false,
      current_period_end: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
      pending_tier: null,
      pending_change_at: null,
      payment_state: null,
      unlimited: false,
    });
  });

  it("after Checkout: the tier, its allowance and the Stripe billing period", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    expect(await ok(account.subscription())).toEqual({
      tier: "ultra",
      limit_seconds: 180_000,
      used_seconds: 0,
      cancel_at_period_end: false,
      current_period_end: world.periodEnd(subscriptionId),
      pending_tier: null,
      pending_change_at: null,
      payment_state: "ok",
      unlimited: false,
    });
    expect(await account.row()).toMatchObject({ stripeSubscriptionId: subscriptionId, status: "active" });
  });
});

describe("cancel and resume", () => {
  it("cancel keeps the tier until the period end; resume undoes it; both are idempotent", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const canceled = await ok(account.cancel());
    expect(canceled).toMatchObject({
      tier: "pro",
      cancel_at_period_end: true,
      current_period_end: world.periodEnd(subscriptionId),
    });
    expect(world.fake.object(subscriptionId)).toMatchObject({ cancel_at_period_end: true, status: "active" });
    expect(await ok(account.cancel())).toMatchObject({ tier: "pro", cancel_at_period_end: true });

    const resumed = await ok(account.resume());
    expect(resumed).toMatchObject({ tier: "pro", cancel_at_period_end: false });
    expect(world.fake.object(subscriptionId).cancel_at_period_end).toBe(false);
    expect(await ok(account.resume())).toMatchObject({ cancel_at_period_end: false });
  });

  it("resume also clears a cancel date set in the portal (cancel_at)", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const end = (world.fake.object(subscriptionId).items as { data: { current_period_end: number }[] }).data[0]
      .current_period_end;
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at: end });
    expect(await ok(account.reconcile())).toMatchObject({ cancel_at_period_end: true });
    expect(await ok(account.resume())).toMatchObject({ cancel_at_period_end: false });
    expect(world.fake.object(subscriptionId).cancel_at).toBeNull();
  });

  it("the period end after a cancel downgrades to free (subscription.revoked)", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    await ok(account.cancel());
    const { events } = world.fake.advancePeriod(subscriptionId);
    const answers = await world.deliver(events);
    expect(answers.map((a) => a.effect)).toContain("subscription.revoked");
    expect(await ok(account.subscription())).toMatchObject({
      tier: "free",
      limit_seconds: 900,
      cancel_at_period_end: false,
      payment_state: null,
    });
    // Subscribing again is a new Checkout.
    expect((await account.checkout("pro")).status).toBe(200);
  });

  it("without a subscription: 409 no_subscription for every operation", async () => {
    const account = await world.customer();
    for (const res of [
      await account.cancel(),
      await account.resume(),
      await account.change("pro"),
      await account.undoChange(),
    ]) {
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ code: "no_subscription" });
    }
  });
});

describe("change tier", () => {
  it("an upgrade applies at once and invoices the prorated difference", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const changed = await ok(account.change("ultra"));
    expect(changed).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      pending_tier: null,
      pending_change_at: null,
      current_period_end: world.periodEnd(subscriptionId),
    });
    const sub = await world.stripe.subscriptions.retrieve(subscriptionId);
    expect(sub.items.data.map((i) => i.price.id)).toEqual([world.prices.ultra]);
    const invoices = await world.stripe.invoices.list({ subscription: subscriptionId });
    expect(invoices.data[0]).toMatchObject({ billing_reason: "subscription_update", status: "paid" });
    expect(invoices.data[0].lines.data.some((line) => line.parent?.subscription_item_details?.proration)).toBe(true);
  });

  it("a downgrade is scheduled for the period end, undone by DELETE, and applied at the period end", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    const end = world.periodEnd(subscriptionId);
    const scheduled = await ok(account.change("pro"));
    expect(scheduled).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      pending_tier: "pro",
      pending_change_at: end,
      cancel_at_period_end: false,
    });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).items.data[0].price.id).toBe(world.prices.ultra);
    // Asking again for the same downgrade changes nothing.
    expect(await ok(account.change("pro"))).toMatchObject({ pending_tier: "pro", pending_change_at: end });

    const undone = await ok(account.undoChange());
    expect(undone).toMatchObject({
      tier: "ultra",
      pending_tier: null,
      pending_change_at: null,
      cancel_at_period_end: false,
    });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).schedule).toBeNull();
    expect(await ok(account.undoChange())).toMatchObject({ pending_tier: null });

    await ok(account.change("pro"));
    const { events } = world.fake.advancePeriod(subscriptionId);
    await world.deliver(events);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      pending_tier: null,
      current_period_end: world.periodEnd(subscriptionId),
    });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).items.data[0].price.id).toBe(world.prices.pro);
  });

  it("asking for the current tier undoes a scheduled change, else 409 same_tier", async () => {
    const { account } = await world.subscribed("ultra");
    const same = await account.change("ultra");
    expect(same.status).toBe(409);
    expect(same.json).toMatchObject({ code: "same_tier" });
    await ok(account.change("pro"));
    expect(await ok(account.change("ultra"))).toMatchObject({ tier: "ultra", pending_tier: null });
  });

  it("an upgrade drops a scheduled downgrade", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    await ok(account.change("pro"));
    // The schedule moved the subscription's future to pro; an upgrade request is to ultra, the current tier.
    expect(await ok(account.change("ultra"))).toMatchObject({ tier: "ultra", pending_tier: null });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).schedule).toBeNull();
  });

  it("cancel drops a scheduled downgrade; a downgrade while a cancel is scheduled is refused", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    await ok(account.change("pro"));
    expect(await ok(account.cancel())).toMatchObject({
      tier: "ultra",
      cancel_at_period_end: true,
      pending_tier: null,
      pending_change_at: null,
    });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).schedule).toBeNull();
    const refused = await account.change("pro");
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "cancel_scheduled" });
    // DELETE change leaves the scheduled cancel as it is.
    expect(await ok(account.undoChange())).toMatchObject({ cancel_at_period_end: true, pending_tier: null });
  });

  it("an upgrade while a cancel is scheduled applies and keeps the cancel", async () => {
    const { account } = await world.subscribed("pro");
    await ok(account.cancel());
    expect(await ok(account.change("ultra"))).toMatchObject({ tier: "ultra", cancel_at_period_end: true });
  });

  it("validates the tier", async () => {
    const { account } = await world.subscribed("pro");
    for (const tier of ["free", "enterprise", ""]) expect((await account.change(tier)).status).toBe(422);
    expect((await ok(account.subscription())).tier).toBe("pro");
  });

  it("a Stripe failure is a 502 upstream_failed and changes nothing stored", async () => {
    const { account } = await world.subscribed("pro");
    const before = await account.row();
    world.fake.fail({ method: "POST", path: /^\/v1\/subscriptions\//, status: 500, times: 10 });
    const errorLog = console.error;
    console.error = () => undefined;
    try {
      const res = await account.change("ultra");
      expect(res.status).toBe(502);
      expect(res.json).toEqual({
        detail: expect.stringContaining("Stripe did not complete the request"),
        code: "upstream_failed",
      });
    } finally {
      console.error = errorLog;
    }
    expect(await account.row()).toEqual(before);
  });
});

describe("POST /v1/me/subscription/reconcile", () => {
  it("is a no-op without a Stripe customer", async () => {
    const account = await world.customer();
    expect(await ok(account.reconcile())).toMatchObject({ tier: "free", payment_state: null });
    expect(
      world.fake.requests.filter((r) => r.params?.customer === undefined && r.path === "/v1/subscriptions"),
    ).toHaveLength(0);
    expect(await account.row()).toBeNull();
  });

  it("sets the tier to what Stripe grants, and surfaces changes made at Stripe; idempotent", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    // Changes made in Stripe (the portal, the dashboard) with no webhook delivered.
    const sub = await world.stripe.subscriptions.retrieve(subscriptionId);
    await world.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: sub.items.data[0].id, price: world.prices.ultra }],
      proration_behavior: "none",
    });
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect((await ok(account.subscription())).tier).toBe("pro");
    const first = await ok(account.reconcile());
    expect(first).toMatchObject({ tier: "ultra", limit_seconds: 180_000, cancel_at_period_end: true });
    expect(await ok(account.reconcile())).toEqual(first);

    await world.stripe.subscriptions.cancel(subscriptionId);
    expect(await ok(account.reconcile())).toMatchObject({
      tier: "free",
      limit_seconds: 900,
      cancel_at_period_end: false,
    });
  });

  it("surfaces a failed payment, and its recovery", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const { invoice } = world.fake.failPayment(subscriptionId);
    expect(await ok(account.reconcile())).toMatchObject({ tier: "pro", payment_state: "past_due" });
    await world.stripe.invoices.pay(invoice!.id as string);
    expect(await ok(account.reconcile())).toMatchObject({ tier: "pro", payment_state: "ok" });
  });
});

describe("POST /v1/me/portal", () => {
  it("404 without a billing account; a portal session for the customer otherwise", async () => {
    const account = await world.customer();
    const none = await account.portal();
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ code: "no_billing_account" });

    const { account: paying } = await world.subscribed("pro");
    const res = await paying.portal();
    expect(res.status).toBe(200);
    const url = (res.json as { url: string }).url;
    expect(url.startsWith(`${world.fake.origin}/p/session/`)).toBe(true);
    const session = world.fake.object(new URL(url).pathname.split("/").pop()!);
    expect(session).toMatchObject({
      customer: (await paying.row())!.stripeCustomerId,
      return_url: "http://app.test/dashboard/billing",
    });
  });
});
