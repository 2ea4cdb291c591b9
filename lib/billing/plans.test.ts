import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeStripe, type FakeStripe } from "@/test/fakes/stripe/server";
import { callRoute } from "@/test/request";
import { captureLogs } from "@/test/capture-logs";
import { plansResponseSchema } from "@/lib/billing/schemas";

// GET /v1/plans through the route handler, with the real `stripe` SDK against the fake Stripe.

const SETTINGS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_API_BASE",
  "STRIPE_PRICE_PRO",
  "STRIPE_PRICE_ULTRA",
  "PLANS_CACHE_SECONDS",
  "PLANS_STRIPE_DEADLINE_MS",
  "PLANS_STATIC_PRO_AMOUNT",
  "PLANS_STATIC_ULTRA_AMOUNT",
  "PLANS_STATIC_CURRENCY",
  "PLANS_STATIC_INTERVAL",
];

let fake: FakeStripe;
let pro: Record<string, unknown>;
let ultra: Record<string, unknown>;

/** Fresh modules (settings are parsed once per process) with these settings. */
async function app(settings: Record<string, string>) {
  for (const name of SETTINGS) delete process.env[name];
  // These tests count Stripe calls over up to 1,000 requests from one address: no rate limits here.
  Object.assign(process.env, { RATE_LIMIT_MULTIPLIER: "0" }, settings);
  vi.resetModules();
  const route = await import("@/app/v1/plans/route");
  return { get: () => callRoute(route.GET, "/v1/plans") };
}

// Stripe's deadline is a guard against a hang here, not a timing: beside the other suites on two cores the fake's
// three answers have taken longer than the default 2 s. The test of the deadline sets the default.
const live = (extra: Record<string, string> = {}) =>
  app({
    STRIPE_SECRET_KEY: fake.apiKey,
    STRIPE_API_BASE: fake.origin,
    STRIPE_PRICE_PRO: pro.id as string,
    STRIPE_PRICE_ULTRA: "verbatim_ultra",
    PLANS_STRIPE_DEADLINE_MS: "60000",
    ...extra,
  });

const iso = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString();

const listCalls = () => ({
  prices: fake.count("GET", "/v1/prices"),
  coupons: fake.count("GET", "/v1/coupons"),
  promotionCodes: fake.count("GET", "/v1/promotion_codes"),
});

beforeAll(async () => {
  fake = await startFakeStripe();
  pro = fake.seedPrice({
    product: { name: "Verbatim Pro" },
    unit_amount: 1200,
    currency: "eur",
    recurring: { interval: "month" },
    lookup_key: "verbatim_pro",
  });
  ultra = fake.seedPrice({
    product: { name: "Verbatim Ultra" },
    unit_amount: 29900,
    currency: "eur",
    recurring: { interval: "year" },
    lookup_key: "verbatim_ultra",
  });
  // Noise the mapping must ignore: an archived price of the same product, a one-time price elsewhere.
  fake.seedPrice({ product: pro.product as string, unit_amount: 999, currency: "eur", active: false });
  fake.seedPrice({ product: { name: "Sticker" }, unit_amount: 300, currency: "eur", recurring: null });
});

afterEach(() => {
  fake.clearFaults();
  fake.resetRequests();
  vi.restoreAllMocks();
});

afterAll(async () => {
  for (const name of SETTINGS) delete process.env[name];
  await fake.close();
});

describe("GET /v1/plans with Stripe", () => {
  it("maps the live prices and the active discounts exactly", async () => {
    const now = Math.floor(Date.now() / 1000);
    const launch = fake.seedCoupon({ name: "Launch", percent_off: 12.5, duration: "forever" });
    const launchCode = fake.seedPromotionCode({
      coupon: launch.id as string,
      code: "LAUNCH",
      expires_at: now + 86_400,
    });
    const proOnly = fake.seedCoupon({
      name: "Ten off Pro",
      amount_off: 1000,
      currency: "eur",
      duration: "once",
      applies_to: { products: [pro.product as string] },
      redeem_by: now + 3600,
    });
    const ultraOnly = fake.seedCoupon({
      name: "Ultra deal",
      percent_off: 20,
      applies_to: { products: [ultra.product as string] },
    });
    const ultraCode = fake.seedPromotionCode({ coupon: ultraOnly.id as string, code: "ULTRA20" });
    // Not shown: an inactive code (its coupon has a code, so it is not "bare" either), a customer's own
    // code, a used-up code, and a coupon that can no longer be redeemed.
    const hidden = fake.seedCoupon({ name: "Hidden", percent_off: 90 });
    fake.seedPromotionCode({ coupon: hidden.id as string, code: "OFF", active: false });
    const vip = fake.seedCoupon({ name: "VIP", percent_off: 50 });
    fake.seedPromotionCode({ coupon: vip.id as string, code: "VIP", customer: fake.seedCustomer().id as string });
    const once = fake.seedCoupon({ name: "Used up", percent_off: 5, max_redemptions: 1 });
    fake.state.find("coupon", once.id as string)!.times_redeemed = 1;

    const { get } = await live();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const body = plansResponseSchema.parse(res.json);
    expect(body.source).toBe("stripe");
    expect(body.plans).toEqual([
      { tier: "free", amount: 0, currency: "eur", interval: "month" },
      { tier: "pro", amount: 1200, currency: "eur", interval: "month" },
      { tier: "ultra", amount: 29900, currency: "eur", interval: "year" },
    ]);
    const byName = [...body.discounts].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(byName).toEqual([
      {
        name: "Launch",
        code: "LAUNCH",
        type: "percent",
        basis_points: 1250,
        amount: null,
        currency: null,
        product_ids: [],
        tiers: ["pro", "ultra"],
        starts_at: iso(launchCode.created),
        ends_at: iso(now + 86_400),
      },
      {
        name: "Ten off Pro",
        code: null,
        type: "amount",
        basis_points: null,
        amount: 1000,
        currency: "eur",
        product_ids: [pro.product],
        tiers: ["pro"],
        starts_at: iso(proOnly.created),
        ends_at: iso(now + 3600),
      },
      {
        name: "Ultra deal",
        code: "ULTRA20",
        type: "percent",
        basis_points: 2000,
        amount: null,
        currency: null,
        product_ids: [ultra.product],
        tiers: ["ultra"],
        starts_at: iso(ultraCode.created),
        ends_at: null,
      },
    ]);
    // Three list calls: active prices with their products, coupons with applies_to, promotion codes.
    expect(listCalls()).toEqual({ prices: 1, coupons: 1, promotionCodes: 1 });
    const [prices, coupons, codes] = ["/v1/prices", "/v1/coupons", "/v1/promotion_codes"].map(
      (path) => fake.requests.find((r) => r.path === path)!.params,
    );
    expect(prices).toMatchObject({ active: "true", expand: ["data.product"] });
    expect(coupons).toMatchObject({ expand: ["data.applies_to"] });
    expect(codes).toMatchObject({ limit: "100" });

    for (const id of [launch.id, proOnly.id, ultraOnly.id, hidden.id, vip.id, once.id])
      fake.state.deleteCoupon(id as string);
  });

  it("with lookup keys for both tiers, asks Stripe for just those prices", async () => {
    const { get } = await live({ STRIPE_PRICE_PRO: "verbatim_pro" });
    const res = await get();
    expect(res.json).toMatchObject({
      source: "stripe",
      plans: [{ tier: "free" }, { tier: "pro", amount: 1200 }, { tier: "ultra", amount: 29900 }],
    });
    expect(fake.requests.find((r) => r.path === "/v1/prices")!.params).toMatchObject({
      lookup_keys: ["verbatim_pro", "verbatim_ultra"],
    });
  });

  it("1,000 requests while the cache is fresh make one Stripe call per resource (concurrent misses share it)", async () => {
    const { get } = await live();
    const first = await Promise.all(Array.from({ length: 500 }, () => get()));
    for (let i = 0; i < 500; i++) expect((await get()).status).toBe(200);
    expect(first.every((r) => r.status === 200 && (r.json as { source: string }).source === "stripe")).toBe(true);
    expect(listCalls()).toEqual({ prices: 1, coupons: 1, promotionCodes: 1 });
  });

  it("asks Stripe again once the cache is older than PLANS_CACHE_SECONDS", async () => {
    const { get } = await live({ PLANS_CACHE_SECONDS: "1" });
    await get();
    await get();
    expect(listCalls().prices).toBe(1);
    const later = Date.now() + 1_100;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    await get();
    expect(listCalls()).toEqual({ prices: 2, coupons: 2, promotionCodes: 2 });
  });
});

describe("GET /v1/plans falls back to static prices", () => {
  const staticDefaults = {
    plans: [
      { tier: "free", amount: 0, currency: "usd", interval: "month" },
      { tier: "pro", amount: 900, currency: "usd", interval: "month" },
      { tier: "ultra", amount: 2900, currency: "usd", interval: "month" },
    ],
    discounts: [],
    source: "static",
  };

  it("when billing is not configured (settings' prices)", async () => {
    expect((await (await app({})).get()).json).toEqual(staticDefaults);
    const custom = await app({
      PLANS_STATIC_PRO_AMOUNT: "1500",
      PLANS_STATIC_ULTRA_AMOUNT: "4500",
      PLANS_STATIC_CURRENCY: "EUR",
      PLANS_STATIC_INTERVAL: "year",
    });
    expect((await custom.get()).json).toEqual({
      plans: [
        { tier: "free", amount: 0, currency: "eur", interval: "year" },
        { tier: "pro", amount: 1500, currency: "eur", interval: "year" },
        { tier: "ultra", amount: 4500, currency: "eur", interval: "year" },
      ],
      discounts: [],
      source: "static",
    });
    // A key alone is not enough: both tier prices are needed.
    expect((await (await app({ STRIPE_SECRET_KEY: fake.apiKey, STRIPE_API_BASE: fake.origin })).get()).json).toEqual(
      staticDefaults,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("when Stripe does not answer within 2 s, and does not ask again on every request", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const stall = fake.stall({ path: "/v1/promotion_codes" });
    const { get } = await live({ PLANS_STRIPE_DEADLINE_MS: "2000" });
    // Stripe never answers while stalled: a static answer proves the deadline cut the wait short.
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual(staticDefaults);
    // The failure is cached for a short while: the next request is answered without asking again.
    expect((await get()).json).toEqual(staticDefaults);
    expect(fake.count("GET", "/v1/promotion_codes")).toBe(1);
    stall.release();
  });

  it("when Stripe answers 500 (no retries within the deadline)", async () => {
    const logs = captureLogs();
    fake.fail({ path: "/v1/coupons", status: 500, times: Infinity });
    const res = await (await live()).get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual(staticDefaults);
    expect(fake.count("GET", "/v1/coupons")).toBe(1);
    logs.restore();
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ level: 40, msg: "GET /v1/plans: serving static prices" }),
    );
  });

  it("when the key is refused or a configured price is not an active price", async () => {
    const logs = captureLogs();
    expect((await (await live({ STRIPE_SECRET_KEY: "sk_test_not_the_key" })).get()).json).toEqual(staticDefaults);
    expect((await (await live({ STRIPE_PRICE_ULTRA: "price_archived" })).get()).json).toEqual(staticDefaults);
    logs.restore();
    const warnings = logs.lines.filter((line) => line.msg === "GET /v1/plans: serving static prices");
    expect(String(warnings.at(-1)?.err)).toContain("STRIPE_PRICE_ULTRA (price_archived) is not an active price");
  });

  it("when Stripe cannot be reached at all", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const res = await (await live({ STRIPE_API_BASE: "http://127.0.0.1:9" })).get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual(staticDefaults);
  });
});
