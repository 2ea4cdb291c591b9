import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseForm } from "./params";
import { sendEvent, signEvent, startFakeStripe, type FakeStripe } from "./server";

// The fake itself, driven by the real `stripe` SDK: if these hold, code written against the fake speaks
// Stripe's wire format (form encoding, expand, errors, idempotency, pagination, object shapes).

let fake: FakeStripe;
let stripe: Stripe;
let pro: Record<string, unknown>;
let ultra: Record<string, unknown>;

const raw = (path: string, init: RequestInit = {}) =>
  fetch(`${fake.origin}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${fake.apiKey}`,
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...init.headers,
    },
  });

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = new Stripe(fake.apiKey, { host: fake.host, port: fake.port, protocol: fake.protocol, maxNetworkRetries: 0 });
  pro = fake.seedPrice({
    product: { name: "Pro" },
    unit_amount: 900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "pro_monthly",
  });
  ultra = fake.seedPrice({
    product: { name: "Ultra" },
    unit_amount: 2900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "ultra_monthly",
  });
});

afterAll(async () => {
  await fake.close();
});

describe("form encoding", () => {
  it("parses nested objects, indexed arrays and `[]` arrays", () => {
    expect(
      parseForm(
        "a[b][c]=1&a[b][d]=x%20y&list[0][price]=p1&list[0][quantity]=2&list[1][price]=p2&expand[]=data.product&expand[]=data.x&e=",
      ),
    ).toEqual({
      a: { b: { c: "1", d: "x y" } },
      list: [{ price: "p1", quantity: "2" }, { price: "p2" }],
      expand: ["data.product", "data.x"],
      e: "",
    });
  });

  it("takes the SDK's nested params (line_items, metadata, subscription_data) as Stripe does", async () => {
    const customer = await stripe.customers.create({ email: "nested@example.com", metadata: { user_id: "u_nested" } });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: pro.id as string, quantity: 1 }],
      success_url: "http://app.test/dashboard/billing?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/dashboard/billing",
      allow_promotion_codes: true,
      client_reference_id: "u_nested",
      metadata: { user_id: "u_nested", tier: "pro" },
      subscription_data: { metadata: { user_id: "u_nested" } },
    });
    const request = fake.requests.findLast((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")!;
    expect(request.params).toMatchObject({
      line_items: [{ price: pro.id, quantity: "1" }],
      metadata: { user_id: "u_nested", tier: "pro" },
      subscription_data: { metadata: { user_id: "u_nested" } },
      allow_promotion_codes: "true",
    });
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      customer: customer.id,
      client_reference_id: "u_nested",
      allow_promotion_codes: true,
      metadata: { user_id: "u_nested", tier: "pro" },
      amount_total: 900,
      currency: "usd",
    });
    expect(session.url).toBe(`${fake.origin}/c/pay/${session.id}`);
    expect(session.id).toMatch(/^cs_test_/);
  });
});

describe("expand", () => {
  it("replaces ids with objects only where asked, in lists and nested paths", async () => {
    const plain = await stripe.prices.list({ lookup_keys: ["pro_monthly"] });
    expect(plain.data.map((p) => p.id)).toEqual([pro.id]);
    expect(typeof plain.data[0].product).toBe("string");
    const expanded = await stripe.prices.list({ lookup_keys: ["pro_monthly"], expand: ["data.product"] });
    expect(expanded.data[0].product).toMatchObject({ object: "product", name: "Pro" });

    const coupon = await stripe.coupons.create({ percent_off: 10, applies_to: { products: [pro.product as string] } });
    expect(coupon.applies_to).toBeUndefined(); // includable: only with expand
    expect((await stripe.coupons.retrieve(coupon.id, { expand: ["applies_to"] })).applies_to).toEqual({
      products: [pro.product],
    });

    // the SDK also accepts `expand[]` written by hand
    const byHand = await raw(`/v1/prices?lookup_keys[]=ultra_monthly&expand[]=data.product`);
    expect(((await byHand.json()) as { data: { product: { name: string } }[] }).data[0].product.name).toBe("Ultra");
  });

  it("refuses what cannot be expanded, and more than four levels", async () => {
    const error = await stripe.prices.list({ expand: ["data.currency"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((error as Stripe.errors.StripeError).message).toBe("This property cannot be expanded (data.currency).");
    const deep = await stripe.prices
      .list({ expand: ["data.product.default_price.product.x"] })
      .catch((e: unknown) => e);
    expect((deep as Stripe.errors.StripeError).statusCode).toBe(400);
  });
});

describe("errors in Stripe's shape", () => {
  it("404 resource_missing for a missing customer (SDK error and raw body)", async () => {
    const error = (await stripe.customers
      .retrieve("cus_doesnotexist")
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      type: "StripeInvalidRequestError",
      code: "resource_missing",
      param: "id",
      message: "No such customer: 'cus_doesnotexist'",
    });

    const response = await raw("/v1/customers/cus_doesnotexist");
    expect(response.status).toBe(404);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      code: "resource_missing",
      param: "id",
      message: "No such customer: 'cus_doesnotexist'",
    });
    expect(body.error.doc_url).toBe("https://stripe.com/docs/error-codes/resource-missing");
  });

  it("400 for a missing object named in a param", async () => {
    const error = (await stripe.billingPortal.sessions
      .create({ customer: "cus_nope" })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toMatchObject({ statusCode: 400, code: "resource_missing", param: "customer" });
  });

  it("400 for unknown params, bad types, bad enum values and missing required params", async () => {
    const unknown = (await stripe.customers
      .create({ emial: "x@example.com" } as Stripe.CustomerCreateParams)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(unknown).toMatchObject({
      statusCode: 400,
      code: "parameter_unknown",
      param: "emial",
      message: "Received unknown parameter: emial",
    });

    const nested = await raw("/v1/checkout/sessions", {
      method: "POST",
      body: "mode=subscription&line_items[0][pricee]=x&line_items[0][quantity]=1",
    });
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { error: unknown }).error).toMatchObject({
      type: "invalid_request_error",
      code: "parameter_unknown",
      param: "line_items[0][pricee]",
    });

    const integer = await raw("/v1/prices", { method: "POST", body: "currency=usd&product=x&unit_amount=nine" });
    expect(((await integer.json()) as { error: unknown }).error).toMatchObject({
      code: "parameter_invalid_integer",
      param: "unit_amount",
      message: "Invalid integer: nine",
    });

    const enumError = await raw("/v1/checkout/sessions", { method: "POST", body: "mode=monthly" });
    expect(((await enumError.json()) as { error: unknown }).error).toMatchObject({
      param: "mode",
      message: "Invalid mode: must be one of payment, setup, or subscription",
    });

    const missing = (await stripe.billingPortal.sessions
      .create({} as Stripe.BillingPortal.SessionCreateParams)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(missing).toMatchObject({
      statusCode: 400,
      code: "parameter_missing",
      param: "customer",
      message: "Missing required param: customer.",
    });
  });

  it("401 without a key or with a wrong one; 404 for an unknown URL", async () => {
    const none = await fetch(`${fake.origin}/v1/customers`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const wrong = new Stripe("sk_test_wrongwrongwrong", { host: fake.host, port: fake.port, protocol: fake.protocol });
    const error = await wrong.customers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((await raw("/v1/nothing-here")).status).toBe(404);
  });
});

describe("idempotency", () => {
  it("replays the first answer for the same key and body, refuses the key with other params", async () => {
    const first = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "signup-1" });
    const again = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "signup-1" });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect((await stripe.customers.list({ email: "idem@example.com" })).data).toHaveLength(1);

    const other = await stripe.customers
      .create({ email: "other@example.com" }, { idempotencyKey: "signup-1" })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((other as Stripe.errors.StripeError).message).toMatch(/can only be used with the same parameters/);
  });

  it("the SDK's automatic retry after a 500 reuses its key, so the object is created once", async () => {
    const retrying = new Stripe(fake.apiKey, {
      host: fake.host,
      port: fake.port,
      protocol: fake.protocol,
      maxNetworkRetries: 1,
    });
    fake.fail({ method: "POST", path: "/v1/customers", status: 500 });
    const before = fake.count("POST", "/v1/customers");
    const customer = await retrying.customers.create({ email: "retry@example.com" });
    expect(fake.count("POST", "/v1/customers") - before).toBe(2);
    const keys = fake.requests
      .filter((r) => r.path === "/v1/customers" && r.method === "POST")
      .slice(-2)
      .map((r) => r.idempotencyKey);
    expect(keys[0]).toBeDefined();
    expect(keys[0]).toBe(keys[1]);
    expect((await stripe.customers.list({ email: "retry@example.com" })).data.map((c) => c.id)).toEqual([customer.id]);
  });
});

describe("lists and search", () => {
  it("paginates newest first with has_more and starting_after (SDK auto-pagination)", async () => {
    const product = fake.seedProduct({ name: "Paged" });
    const ids = Array.from(
      { length: 5 },
      (_, i) => fake.seedPrice({ product: product.id as string, unit_amount: 100 + i }).id,
    );
    const page = await stripe.prices.list({ product: product.id as string, limit: 2 });
    expect(page.has_more).toBe(true);
    expect(page.data.map((p) => p.id)).toEqual([ids[4], ids[3]]);
    const all = await stripe.prices.list({ product: product.id as string, limit: 2 }).autoPagingToArray({ limit: 100 });
    expect(all.map((p) => p.id)).toEqual([...ids].reverse());
    const limit = await stripe.prices.list({ limit: 101 }).catch((e: unknown) => e);
    expect((limit as Stripe.errors.StripeError).param).toBe("limit");
  });

  it("finds customers by metadata with the search query language", async () => {
    const customer = await stripe.customers.create({ email: "search@example.com", metadata: { user_id: "user_42" } });
    const found = await stripe.customers.search({ query: "metadata['user_id']:'user_42'" });
    expect(found.data.map((c) => c.id)).toEqual([customer.id]);
    expect(found.object).toBe("search_result");
    expect(
      (await stripe.customers.search({ query: 'email:"search@example.com" AND metadata["user_id"]:"user_42"' })).data,
    ).toHaveLength(1);
    expect((await stripe.customers.search({ query: "metadata['user_id']:'nobody'" })).data).toHaveLength(0);
    const bad = await stripe.customers.search({ query: "this is not a query" }).catch((e: unknown) => e);
    expect((bad as Stripe.errors.StripeError).statusCode).toBe(400);
  });

  it("search lags behind writes when asked to (as Stripe's does, by about a minute)", async () => {
    const lagging = await startFakeStripe({ searchDelaySeconds: 60 });
    try {
      const client = new Stripe(lagging.apiKey, { host: lagging.host, port: lagging.port, protocol: lagging.protocol });
      await client.customers.create({ metadata: { user_id: "fresh" } });
      expect((await client.customers.search({ query: "metadata['user_id']:'fresh'" })).data).toHaveLength(0);
      expect((await client.customers.list({ limit: 1 })).data).toHaveLength(1);
    } finally {
      await lagging.close();
    }
  });
});

describe("the subscription lifecycle", () => {
  it("checkout → subscription (periods on items, as in this API version) → upgrade → scheduled downgrade → renewal", async () => {
    const customer = await stripe.customers.create({ email: "life@example.com", metadata: { user_id: "u_life" } });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: pro.id as string, quantity: 1 }],
      success_url: "http://app.test/ok",
      allow_promotion_codes: true,
      client_reference_id: "u_life",
    });
    const done = fake.completeCheckout(session.id);
    expect(done.events.map((e) => e.type)).toEqual([
      "customer.subscription.created",
      "invoice.created",
      "invoice.finalized",
      "invoice.paid",
      "invoice.payment_succeeded",
      "checkout.session.completed",
    ]);
    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription", "line_items"] });
    expect(completed).toMatchObject({ status: "complete", payment_status: "paid", url: null, customer: customer.id });
    expect(completed.line_items?.data[0]).toMatchObject({
      object: "item",
      quantity: 1,
      amount_total: 900,
      price: { id: pro.id },
    });
    const sub = completed.subscription as Stripe.Subscription;
    expect(sub).toMatchObject({ status: "active", customer: customer.id, cancel_at_period_end: false, schedule: null });
    expect(sub).not.toHaveProperty("current_period_end");
    const item = sub.items.data[0];
    expect(item.price.id).toBe(pro.id);
    expect(item.current_period_end).toBeGreaterThan(item.current_period_start);

    // Older API versions also see the period on the subscription.
    const legacy = new Stripe(fake.apiKey, {
      host: fake.host,
      port: fake.port,
      protocol: fake.protocol,
      apiVersion: "2024-06-20" as Stripe.LatestApiVersion,
    });
    expect(await legacy.subscriptions.retrieve(sub.id)).toMatchObject({
      current_period_start: item.current_period_start,
      current_period_end: item.current_period_end,
    });

    // Upgrade at once with proration: same item, new price, an invoice for the difference.
    const upgraded = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: ultra.id as string }],
      proration_behavior: "always_invoice",
    });
    expect(upgraded.items.data.map((i) => [i.id, i.price.id])).toEqual([[item.id, ultra.id]]);
    const proration = await stripe.invoices.retrieve(upgraded.latest_invoice as string);
    expect(proration).toMatchObject({ billing_reason: "subscription_update", status: "paid" });
    expect(proration.lines.data.map((l) => l.parent?.subscription_item_details?.proration)).toEqual([true, true]);
    const updated = fake.events.findLast((e) => e.type === "customer.subscription.updated")!;
    expect(Object.keys((updated.data as { previous_attributes: object }).previous_attributes)).toContain("items");

    // Downgrade at period end with a schedule: cancel_at_period_end is then refused on the subscription.
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    expect(schedule).toMatchObject({ status: "active", subscription: sub.id, end_behavior: "release" });
    const planned = await stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: "release",
      phases: [
        {
          items: [{ price: ultra.id as string, quantity: 1 }],
          start_date: schedule.phases[0].start_date,
          end_date: schedule.phases[0].end_date,
        },
        { items: [{ price: pro.id as string, quantity: 1 }], duration: { interval: "month" } },
      ],
    });
    expect(planned.phases.map((p) => p.items[0].price)).toEqual([ultra.id, pro.id]);
    expect(planned.phases[1].start_date).toBe(item.current_period_end);
    const refused = (await stripe.subscriptions
      .update(sub.id, { cancel_at_period_end: true })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(refused.message).toMatch(/managed by the subscription schedule/);
    const badStart = await stripe.subscriptionSchedules
      .update(schedule.id, { phases: [{ items: [{ price: pro.id as string }], start_date: 1 }] })
      .catch((e: unknown) => e);
    expect((badStart as Stripe.errors.StripeError).message).toBe(
      "You can not modify the start date of the current phase.",
    );

    // The period ends: the next phase's price applies with a new period and a paid invoice.
    const renewal = fake.advancePeriod(sub.id);
    expect(renewal.events.map((e) => e.type)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    const renewed = await stripe.subscriptions.retrieve(sub.id);
    expect(renewed.items.data[0].price.id).toBe(pro.id);
    expect(renewed.items.data[0].current_period_start).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);

    // Release the schedule: the subscription is on its own again.
    const released = await stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({ status: "released", released_subscription: sub.id, subscription: null });
    expect((await stripe.subscriptions.retrieve(sub.id)).schedule).toBeNull();
  });

  it("cancel at period end, resume, payment failure, recovery, and the end", async () => {
    const customer = fake.seedCustomer({ email: "end@example.com" });
    const { subscription } = fake.seedSubscription({ customer: customer.id as string, price: pro.id as string });
    const id = subscription.id as string;

    const canceling = await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({
      cancel_at_period_end: true,
      status: "active",
      cancel_at: canceling.items.data[0].current_period_end,
    });
    const resumed = await stripe.subscriptions.update(id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });

    const failed = fake.failPayment(id);
    expect(failed.events.map((e) => e.type)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "invoice.payment_failed",
      "customer.subscription.updated",
    ]);
    expect(failed.subscription.status).toBe("past_due");
    const open = await stripe.invoices.list({ subscription: id, status: "open" });
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({
      attempted: true,
      attempt_count: 1,
      status: "open",
      parent: { subscription_details: { subscription: id } },
    });
    expect(fake.failPayment(id).invoice).toMatchObject({ id: open.data[0].id, attempt_count: 2 });

    const paid = await stripe.invoices.pay(open.data[0].id);
    expect(paid.status).toBe("paid");
    expect((await stripe.subscriptions.retrieve(id)).status).toBe("active");

    await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    const end = fake.advancePeriod(id);
    expect(end.events.map((e) => e.type)).toEqual(["customer.subscription.deleted"]);
    expect((await stripe.subscriptions.list({ customer: customer.id as string })).data).toHaveLength(0);
    expect(
      (await stripe.subscriptions.list({ customer: customer.id as string, status: "canceled" })).data.map((s) => s.id),
    ).toEqual([id]);
  });

  it("cancels at once with DELETE", async () => {
    const customer = fake.seedCustomer();
    const { subscription } = fake.seedSubscription({ customer: customer.id as string, price: ultra.id as string });
    const canceled = await stripe.subscriptions.cancel(subscription.id as string);
    expect(canceled).toMatchObject({ status: "canceled" });
    expect(canceled.ended_at).not.toBeNull();
    expect(fake.events.at(-1)).toMatchObject({
      type: "customer.subscription.deleted",
      data: { object: { id: subscription.id, status: "canceled" } },
    });
  });

  it("redeems a promotion code at checkout", async () => {
    const coupon = fake.seedCoupon({ name: "Half", percent_off: 50, duration: "once" });
    fake.seedPromotionCode({ coupon: coupon.id as string, code: "HALF" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer_email: "promo@example.com",
      line_items: [{ price: pro.id as string, quantity: 1 }],
      allow_promotion_codes: true,
    });
    const done = fake.completeCheckout(session.id, { promotionCode: "half" });
    expect(done.session).toMatchObject({ amount_total: 450, total_details: { amount_discount: 450 } });
    expect(done.invoice).toMatchObject({ total: 450, amount_paid: 450 });
    expect(done.events[0].type).toBe("customer.created");
    const codes = await stripe.promotionCodes.list({ code: "HALF" });
    expect(codes.data[0]).toMatchObject({ times_redeemed: 1, promotion: { type: "coupon", coupon: coupon.id } });
    expect((await stripe.coupons.retrieve(coupon.id as string)).times_redeemed).toBe(1);
  });
});

describe("webhooks", () => {
  it("signs events with the SDK's test header helper; delivers them to an endpoint", async () => {
    const secret = "whsec_fake_test_secret";
    const customer = fake.seedCustomer();
    const { events } = fake.seedSubscription({ customer: customer.id as string, price: pro.id as string });
    const { body, header } = signEvent(events[0], secret);
    const verified = stripe.webhooks.constructEvent(body, header, secret);
    expect(verified).toMatchObject({
      type: "customer.subscription.created",
      object: "event",
      api_version: Stripe.API_VERSION,
    });
    expect(() => stripe.webhooks.constructEvent(body, header, "whsec_other")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const stale = signEvent(events[0], secret, Math.floor(Date.now() / 1000) - 600);
    expect(() => stripe.webhooks.constructEvent(stale.body, stale.header, secret)).toThrow(
      /Timestamp outside the tolerance zone/,
    );

    const received: string[] = [];
    const endpoint = http.createServer((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        const event = stripe.webhooks.constructEvent(text, String(req.headers["stripe-signature"]), secret);
        received.push(event.type);
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
    try {
      const results = await fake.deliver(events, { url, secret });
      expect(results.map((r) => r.status)).toEqual(events.map(() => 200));
      expect(received).toEqual(events.map((e) => e.type));
      expect((await sendEvent(url, events[0], secret)).status).toBe(200);
      expect((await stripe.events.retrieve(events[0].id as string)).type).toBe(events[0].type);

      // The hosted Checkout page: Pay completes the session, delivers its events, redirects to success_url.
      fake.setWebhook({ url, secret });
      received.length = 0;
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer_email: "hosted@example.com",
        line_items: [{ price: pro.id as string, quantity: 1 }],
        success_url: "http://app.test/dashboard/billing?checkout={CHECKOUT_SESSION_ID}",
        cancel_url: "http://app.test/dashboard/billing",
      });
      const page = await fetch(session.url!);
      expect(await page.text()).toContain('<button type="submit">Pay</button>');
      const paid = await fetch(session.url!, {
        method: "POST",
        body: new URLSearchParams({ email: "hosted@example.com" }),
        redirect: "manual",
      });
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toBe(`http://app.test/dashboard/billing?checkout=${session.id}`);
      expect(received).toContain("checkout.session.completed");
      expect(received).toContain("customer.subscription.created");
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("complete");
    } finally {
      fake.setWebhook(undefined);
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});
