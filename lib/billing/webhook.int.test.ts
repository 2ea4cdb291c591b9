import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ok, startBillingWorld, WEBHOOK_SECRET, type BillingCustomer, type BillingWorld } from "@/test/billing";
import { signEvent } from "@/test/fakes/stripe/server";
import { callRoute } from "@/test/request";

// POST /v1/webhooks/billing through the route: events the fake Stripe recorded, signed with the SDK's test
// header helper, and what each delivery stored (the Subscription row, WebhookEvent rows, GET /v1/me/subscription).

let world: BillingWorld;

beforeAll(async () => {
  world = await startBillingWorld();
});
afterEach(() => world.fake.clearFaults());
afterAll(async () => world?.teardown());

type Event = { id: string; type: string; data: { object: Record<string, unknown> } };
type Answer = { received: boolean; outcome: string; effect: string | null };

/** Events the fake recorded after `mark` (a former `world.fake.events.length`). */
const since = (mark: number) => world.fake.events.slice(mark) as unknown as Event[];

/** The one event of a type among `events`. */
function only(events: readonly object[], type: string): Event {
  const found = (events as Event[]).filter((event) => event.type === type);
  expect(
    found.map((event) => event.type),
    `one ${type} among ${(events as Event[]).map((e) => e.type).join(", ")}`,
  ).toEqual([type]);
  return found[0];
}

const webhookRows = (id: string) => world.db.webhookEvent.findMany({ where: { id } });
const subscriptionReads = () => world.fake.count("GET", "/v1/subscriptions");
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A user who paid at Checkout; no event delivered yet. */
async function paidAtStripe(
  tier: "pro" | "ultra" = "pro",
): Promise<{ account: BillingCustomer; subscriptionId: string; customerId: string; events: Event[] }> {
  const account = await world.customer();
  const res = await account.checkout(tier);
  expect(res.status, res.text).toBe(200);
  const sessionId = new URL((res.json as { url: string }).url).pathname.split("/").pop()!;
  const done = world.fake.completeCheckout(sessionId);
  return {
    account,
    subscriptionId: done.subscription!.id as string,
    customerId: (await account.row())!.stripeCustomerId!,
    events: done.events as unknown as Event[],
  };
}

/** Runs `change` against Stripe, then delivers every event the fake recorded meanwhile. */
async function atStripe(change: () => Promise<unknown>): Promise<{ events: Event[]; answers: Answer[] }> {
  const mark = world.fake.events.length;
  await change();
  const events = since(mark);
  expect(events.length).toBeGreaterThan(0);
  return { events, answers: (await world.deliver(events)) as Answer[] };
}

const effects = (answers: Answer[]) => answers.map((a) => a.effect).filter((effect) => effect !== null);

describe("signature", () => {
  it("a valid signed event is applied: 200, the tier is stored with the event's row", async () => {
    const { account, subscriptionId, customerId, events } = await paidAtStripe("pro");
    expect(await account.row()).toMatchObject({ tier: "free", stripeSubscriptionId: null });
    const completed = only(events, "checkout.session.completed");

    const res = await world.sendWebhook(completed);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: "applied", effect: "subscription.updated" });
    expect(await account.row()).toMatchObject({
      tier: "pro",
      stripeCustomerId: customerId,
      stripeSubscriptionId: subscriptionId,
      status: "active",
      paymentState: "ok",
    });
    expect(await webhookRows(completed.id)).toEqual([
      { id: completed.id, provider: "stripe", type: "checkout.session.completed", processedAt: expect.any(Date) },
    ]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      current_period_end: world.periodEnd(subscriptionId),
      payment_state: "ok",
    });
  });

  it("a forged signature is 400 invalid_signature and stores nothing: another secret, or a body altered after signing", async () => {
    const { account, events } = await paidAtStripe("ultra");
    const completed = only(events, "checkout.session.completed");
    const before = await account.row();

    const otherSecret = await world.sendWebhook(completed, { secret: "whsec_not_ours" });
    expect(otherSecret.status).toBe(400);
    expect(otherSecret.json).toMatchObject({ code: "invalid_signature" });

    // Signed as it was, then the body changed (another event id): the signature no longer matches.
    const { header } = signEvent(completed, WEBHOOK_SECRET);
    const altered = { ...completed, id: `${completed.id}x` };
    const tampered = await world.sendWebhook(altered, { header });
    expect(tampered.status).toBe(400);
    expect(tampered.json).toMatchObject({ code: "invalid_signature" });

    expect(await webhookRows(completed.id)).toEqual([]);
    expect(await webhookRows(altered.id)).toEqual([]);
    expect(await account.row()).toEqual(before);
    expect(await ok(account.subscription())).toMatchObject({ tier: "free", limit_seconds: 900 });

    // The same event, signed with our secret, was worth applying all along.
    expect((await world.deliver([completed]))[0]).toMatchObject({ outcome: "applied" });
    expect((await account.row())!.tier).toBe("ultra");
  });

  it("a signature older than 300 s is 400; one inside the tolerance is accepted", async () => {
    const { account, events } = await paidAtStripe("pro");
    const completed = only(events, "checkout.session.completed");
    const before = await account.row();

    for (const age of [301, 3600]) {
      const stale = await world.sendWebhook(completed, { timestamp: nowSeconds() - age });
      expect(stale.status, `${age} s old`).toBe(400);
      expect(stale.json).toMatchObject({ code: "invalid_signature" });
    }
    expect(await webhookRows(completed.id)).toEqual([]);
    expect(await account.row()).toEqual(before);

    const recent = await world.sendWebhook(completed, { timestamp: nowSeconds() - 240 });
    expect(recent.status, recent.text).toBe(200);
    expect(recent.json).toMatchObject({ outcome: "applied", effect: "subscription.updated" });
    expect(await webhookRows(completed.id)).toHaveLength(1);
    expect((await ok(account.subscription())).tier).toBe("pro");
  });

  it("a missing Stripe-Signature header is 400", async () => {
    const { account, events } = await paidAtStripe("pro");
    const completed = only(events, "checkout.session.completed");
    const before = await account.row();
    const res = await callRoute(world.routes.webhook, "/v1/webhooks/billing", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(completed),
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: "invalid_signature",
      detail: expect.stringContaining("Missing Stripe-Signature"),
    });
    expect(await webhookRows(completed.id)).toEqual([]);
    expect(await account.row()).toEqual(before);
  });
});

describe("delivery", () => {
  it("the same event twice: the second is a duplicate, one WebhookEvent row, Stripe read once", async () => {
    const { account, events } = await paidAtStripe("pro");
    const completed = only(events, "checkout.session.completed");
    const first = await world.sendWebhook(completed);
    expect(first.json).toEqual({ received: true, outcome: "applied", effect: "subscription.updated" });
    const afterFirst = await account.row();
    const reads = subscriptionReads();

    const second = await world.sendWebhook(completed);
    expect(second.status, second.text).toBe(200);
    expect(second.json).toEqual({ received: true, outcome: "duplicate", effect: null });
    expect(subscriptionReads()).toBe(reads);
    expect(await webhookRows(completed.id)).toHaveLength(1);
    expect(await account.row()).toEqual(afterFirst);
  });

  it("the same event five times at once: exactly one applied, the rest duplicates, one row", async () => {
    const { account, events } = await paidAtStripe("ultra");
    const completed = only(events, "checkout.session.completed");
    const answers = await Promise.all(Array.from({ length: 5 }, () => world.sendWebhook(completed)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const outcomes = answers.map((a) => (a.json as Answer).outcome).sort();
    expect(outcomes).toEqual(["applied", "duplicate", "duplicate", "duplicate", "duplicate"]);
    expect(answers.map((a) => (a.json as Answer).effect).filter(Boolean)).toEqual(["subscription.updated"]);
    expect(await webhookRows(completed.id)).toHaveLength(1);
    expect(await ok(account.subscription())).toMatchObject({ tier: "ultra", limit_seconds: 180_000 });
  });

  it("deleted before the updated of the same history: the user ends free and the late update does not bring the tier back", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const mark = world.fake.events.length;
    const sub = await world.stripe.subscriptions.retrieve(subscriptionId);
    await world.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: sub.items.data[0].id, price: world.prices.ultra }],
      proration_behavior: "none",
    });
    await world.stripe.subscriptions.cancel(subscriptionId);
    const events = since(mark);
    const updated = only(events, "customer.subscription.updated");
    const deleted = only(events, "customer.subscription.deleted");
    // The late event, read on its own, says "active on ultra".
    expect(updated.data.object).toMatchObject({
      status: "active",
      items: { data: [{ price: { id: world.prices.ultra } }] },
    });

    const first = await world.sendWebhook(deleted);
    expect(first.json).toEqual({ received: true, outcome: "applied", effect: "subscription.revoked" });
    expect(await ok(account.subscription())).toMatchObject({ tier: "free", limit_seconds: 900, payment_state: null });

    const late = await world.sendWebhook(updated);
    expect(late.status, late.text).toBe(200);
    expect(late.json).toEqual({ received: true, outcome: "applied", effect: null });
    expect(await account.row()).toMatchObject({
      tier: "free",
      stripeSubscriptionId: null,
      status: "canceled",
      cancelAtPeriodEnd: false,
    });
    expect(await ok(account.subscription())).toMatchObject({ tier: "free", limit_seconds: 900 });
    expect(await webhookRows(deleted.id)).toHaveLength(1);
    expect(await webhookRows(updated.id)).toHaveLength(1);
  });

  it("an event type we do not handle is 200 ignored and stores nothing", async () => {
    const { account, customerId, events } = await paidAtStripe("pro");
    const before = await account.row();
    const reads = subscriptionReads();
    // Recorded by the fake: the customer our Checkout created, the first invoice being finalized.
    const created = (world.fake.events as unknown as Event[]).find(
      (e) => e.type === "customer.created" && e.data.object.id === customerId,
    )!;
    expect(created).toBeDefined();
    const finalized = only(events, "invoice.finalized");
    expect(finalized.data.object.customer).toBe(customerId);
    // Stripe sends charge events too; the fake has no charges, so this one is written as Stripe shapes it.
    const refunded = {
      id: "evt_1ChargeRefundedTest",
      object: "event",
      api_version: world.fake.apiVersion,
      created: nowSeconds(),
      data: {
        object: {
          id: "ch_1RefundedTest",
          object: "charge",
          amount: 900,
          amount_refunded: 900,
          currency: "usd",
          customer: customerId,
          refunded: true,
        },
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "charge.refunded",
    };

    for (const event of [created, finalized, refunded]) {
      const res = await world.sendWebhook(event);
      expect(res.status, res.text).toBe(200);
      expect(res.json, event.type).toEqual({ received: true, outcome: "ignored", effect: null });
      expect(await webhookRows(event.id)).toEqual([]);
    }
    expect(subscriptionReads()).toBe(reads);
    expect(await account.row()).toEqual(before);
    expect((await ok(account.subscription())).tier).toBe("free");
  });

  it("a failure while applying is a 500 that stores nothing, so Stripe's retry is applied", async () => {
    const { account, events } = await paidAtStripe("pro");
    const completed = only(events, "checkout.session.completed");
    const before = await account.row();
    world.fake.fail({ method: "GET", path: /^\/v1\/subscriptions/, status: 500, times: 10 });
    const reads = subscriptionReads();
    const errorLog = console.error;
    console.error = () => undefined;
    try {
      const res = await world.sendWebhook(completed);
      expect(res.status).toBe(500);
      expect(res.json).toMatchObject({ code: "internal_error" });
    } finally {
      console.error = errorLog;
    }
    expect(subscriptionReads()).toBeGreaterThan(reads);
    expect(await webhookRows(completed.id)).toEqual([]);
    expect(await account.row()).toEqual(before);

    world.fake.clearFaults();
    const retry = await world.sendWebhook(completed);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json).toEqual({ received: true, outcome: "applied", effect: "subscription.updated" });
    expect(await webhookRows(completed.id)).toHaveLength(1);
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", limit_seconds: 36_000 });
  });

  it("an event for a customer we do not know is 200 unknown_customer and stores nothing", async () => {
    const mark = world.fake.events.length;
    // Made at Stripe outside our app: no user_id in the metadata, no row of ours.
    const customer = await world.stripe.customers.create({ email: "stranger@example.test" });
    const subscription = await world.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: world.prices.pro }],
    });
    const created = only(since(mark), "customer.subscription.created");
    expect(created.data.object).toMatchObject({ id: subscription.id, customer: customer.id });

    const res = await world.sendWebhook(created);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: "unknown_customer", effect: null });
    expect(await webhookRows(created.id)).toEqual([]);
    expect(
      await world.db.subscription.count({
        where: { OR: [{ stripeCustomerId: customer.id }, { stripeSubscriptionId: subscription.id }] },
      }),
    ).toBe(0);
    expect(await world.sendWebhook(created)).toMatchObject({ status: 200, json: { outcome: "unknown_customer" } });

    // Once the customer names one of our users at Stripe, a redelivery of the same event is applied.
    const account = await world.customer();
    await world.stripe.customers.update(customer.id, { metadata: { user_id: account.user.id } });
    const redelivered = await world.sendWebhook(created);
    expect(redelivered.json).toEqual({ received: true, outcome: "applied", effect: "subscription.updated" });
    expect(await webhookRows(created.id)).toHaveLength(1);
    expect(await account.row()).toMatchObject({
      tier: "pro",
      stripeCustomerId: customer.id,
      stripeSubscriptionId: subscription.id,
    });
  });
});

describe("the subscription table, driven by Stripe's events", () => {
  it("cancel_at_period_end set at Stripe: subscription.canceled, tier kept; unset: subscription.resumed", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const canceled = await atStripe(() =>
      world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    );
    expect(canceled.events.map((e) => e.type)).toEqual(["customer.subscription.updated"]);
    expect(canceled.answers).toEqual([{ received: true, outcome: "applied", effect: "subscription.canceled" }]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      cancel_at_period_end: true,
      current_period_end: world.periodEnd(subscriptionId),
    });
    expect(await account.row()).toMatchObject({ tier: "pro", cancelAtPeriodEnd: true, status: "active" });

    const resumed = await atStripe(() =>
      world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }),
    );
    expect(resumed.answers).toEqual([{ received: true, outcome: "applied", effect: "subscription.resumed" }]);
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", cancel_at_period_end: false });
    expect(await account.row()).toMatchObject({ tier: "pro", cancelAtPeriodEnd: false });
  });

  it("a price changed at Stripe: subscription.updated, the new tier and limit, same period", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const end = world.periodEnd(subscriptionId);
    const item = (await world.stripe.subscriptions.retrieve(subscriptionId)).items.data[0];
    const changed = await atStripe(() =>
      world.stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: world.prices.ultra }],
        proration_behavior: "always_invoice",
      }),
    );
    // The prorated invoice's own events (invoice.created, invoice.finalized) are not ours to handle.
    const outcomes = changed.events.map((e, i) => [e.type, changed.answers[i].outcome]);
    expect(outcomes).toContainEqual(["customer.subscription.updated", "applied"]);
    expect(outcomes).toContainEqual(["invoice.paid", "applied"]);
    expect(effects(changed.answers)).toEqual(["subscription.updated"]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      current_period_end: end,
      payment_state: "ok",
    });
    expect(await account.row()).toMatchObject({ tier: "ultra", stripeSubscriptionId: subscriptionId });
  });

  it("the period end after a cancel: subscription.revoked, free", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    expect(
      effects(
        (await atStripe(() => world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true })))
          .answers,
      ),
    ).toEqual(["subscription.canceled"]);
    const { events } = world.fake.advancePeriod(subscriptionId);
    expect(events.map((e) => e.type)).toContain("customer.subscription.deleted");
    const answers = (await world.deliver(events)) as Answer[];
    expect(effects(answers)).toEqual(["subscription.revoked"]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "free",
      limit_seconds: 900,
      cancel_at_period_end: false,
      pending_tier: null,
      payment_state: null,
    });
    expect(await account.row()).toMatchObject({
      tier: "free",
      stripeSubscriptionId: null,
      status: "canceled",
      currentPeriodEnd: null,
    });
  });

  it("a schedule with a later phase surfaces pending_tier and pending_change_at; its release clears them, cancel_at_period_end untouched", async () => {
    const { account, subscriptionId } = await world.subscribed("ultra");
    const item = (await world.stripe.subscriptions.retrieve(subscriptionId)).items.data[0];
    const end = world.periodEnd(subscriptionId);
    let scheduleId = "";
    const scheduled = await atStripe(async () => {
      const schedule = await world.stripe.subscriptionSchedules.create({ from_subscription: subscriptionId });
      scheduleId = schedule.id;
      await world.stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: "release",
        proration_behavior: "none",
        phases: [
          {
            items: [{ price: world.prices.ultra, quantity: 1 }],
            start_date: schedule.phases[0].start_date,
            end_date: item.current_period_end,
          },
          { items: [{ price: world.prices.pro, quantity: 1 }], duration: { interval: "month", interval_count: 1 } },
        ],
      });
    });
    expect(scheduled.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["subscription_schedule.created", "subscription_schedule.updated"]),
    );
    expect(scheduled.answers.every((a) => a.outcome === "applied")).toBe(true);
    expect(effects(scheduled.answers)).toEqual([]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      pending_tier: "pro",
      pending_change_at: end,
      cancel_at_period_end: false,
    });
    expect(await account.row()).toMatchObject({
      stripeScheduleId: scheduleId,
      pendingTier: "pro",
      pendingChangeAt: new Date(end),
    });

    const released = await atStripe(() => world.stripe.subscriptionSchedules.release(scheduleId));
    expect(released.events.map((e) => e.type)).toContain("subscription_schedule.released");
    expect(effects(released.answers)).toEqual([]);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "ultra",
      pending_tier: null,
      pending_change_at: null,
      cancel_at_period_end: false,
    });
    expect(await account.row()).toMatchObject({
      tier: "ultra",
      stripeScheduleId: null,
      pendingTier: null,
      pendingChangeAt: null,
      cancelAtPeriodEnd: false,
    });
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(false);
  });

  it("invoice.payment_failed: payment_state past_due, tier kept; paying the invoice: ok", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const failed = world.fake.failPayment(subscriptionId);
    const paymentFailed = only(failed.events, "invoice.payment_failed");
    const res = await world.sendWebhook(paymentFailed);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: "applied", effect: null });
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      payment_state: "past_due",
    });
    expect(await account.row()).toMatchObject({ status: "past_due", paymentState: "past_due" });

    const paid = await atStripe(() => world.stripe.invoices.pay(failed.invoice!.id as string));
    expect(paid.events.map((e) => e.type)).toContain("invoice.paid");
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", payment_state: "ok" });
    expect(await account.row()).toMatchObject({ status: "active", paymentState: "ok" });
  });
});
