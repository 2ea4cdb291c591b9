import type Stripe from "stripe";
import { env, type Env } from "@/lib/env";
import type { DiscountInfo, PlanInfo, PlansResponse } from "@/lib/billing/schemas";
import { billingConfig, getStripe, PAID_TIERS, type BillingConfig, type PaidTier } from "@/lib/billing/stripe";
import { log } from "@/lib/observability/logger";

// GET /v1/plans: each tier's live price and the active coupons and promotion codes, from three Stripe list
// calls (active prices with their products, coupons with applies_to, promotion codes), cached in-process for
// PLANS_CACHE_SECONDS; concurrent misses share one fetch. Without billing, or when Stripe does not answer
// within PLANS_STRIPE_DEADLINE_MS, the static prices from settings (no discounts); a failure is retried after
// FAILURE_RETRY_SECONDS rather than on every request.

const FAILURE_RETRY_SECONDS = 30;
const MAX_LISTED = 10_000;

/** The settings' prices, with no discounts: billing off, or Stripe unreachable. */
export function staticPlans(settings: Env = env()): PlansResponse {
  const currency = settings.PLANS_STATIC_CURRENCY;
  const interval = settings.PLANS_STATIC_INTERVAL;
  return {
    plans: [
      { tier: "free", amount: 0, currency, interval },
      { tier: "pro", amount: settings.PLANS_STATIC_PRO_AMOUNT, currency, interval },
      { tier: "ultra", amount: settings.PLANS_STATIC_ULTRA_AMOUNT, currency, interval },
    ],
    discounts: [],
    source: "static",
  };
}

const iso = (unixSeconds: number | null | undefined) =>
  unixSeconds ? new Date(unixSeconds * 1000).toISOString() : null;
const productId = (product: Stripe.Price["product"]) => (typeof product === "string" ? product : product.id);

/** The configured price of each paid tier among the listed ones (matched by id or lookup key). */
export function pickTierPrices(prices: Stripe.Price[], refs: Record<PaidTier, string>): Record<PaidTier, Stripe.Price> {
  const picked = {} as Record<PaidTier, Stripe.Price>;
  for (const tier of PAID_TIERS) {
    const ref = refs[tier];
    const price = prices.find((p) => p.id === ref) ?? prices.find((p) => p.lookup_key === ref);
    if (!price)
      throw new Error(`STRIPE_PRICE_${tier.toUpperCase()} (${ref}) is not an active price in this Stripe account`);
    picked[tier] = price;
  }
  return picked;
}

export function planInfos(tierPrices: Record<PaidTier, Stripe.Price>): PlanInfo[] {
  const paid = PAID_TIERS.map((tier) => {
    const price = tierPrices[tier];
    return { tier, amount: price.unit_amount, currency: price.currency, interval: price.recurring?.interval ?? null };
  });
  return [{ tier: "free", amount: 0, currency: paid[0].currency, interval: paid[0].interval ?? "month" }, ...paid];
}

function discountInfo(
  coupon: Stripe.Coupon,
  tierProducts: Record<PaidTier, string>,
  promotion?: Stripe.PromotionCode,
): DiscountInfo {
  const products = coupon.applies_to?.products ?? [];
  const ends = [promotion?.expires_at, coupon.redeem_by].filter((t): t is number => typeof t === "number");
  return {
    name: coupon.name,
    code: promotion?.code ?? null,
    type: coupon.percent_off !== null ? "percent" : coupon.amount_off !== null ? "amount" : null,
    basis_points: coupon.percent_off !== null ? Math.round(coupon.percent_off * 100) : null,
    amount: coupon.amount_off,
    currency: coupon.amount_off !== null ? coupon.currency : null,
    product_ids: [...products],
    tiers: PAID_TIERS.filter((tier) => products.length === 0 || products.includes(tierProducts[tier])),
    starts_at: iso(promotion?.created ?? coupon.created),
    ends_at: ends.length > 0 ? iso(Math.min(...ends)) : null,
  };
}

/**
 * Active discounts: every active, public (not customer-specific) promotion code with its coupon, and every
 * valid coupon that has no promotion code at all (a "bare" coupon, `code` null). Newest first.
 */
export function discountInfos(
  coupons: Stripe.Coupon[],
  promotionCodes: Stripe.PromotionCode[],
  tierProducts: Record<PaidTier, string>,
  now: Date = new Date(),
): DiscountInfo[] {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const byId = new Map(coupons.map((c) => [c.id, c]));
  const couponOf = (p: Stripe.PromotionCode) => {
    const ref = p.promotion.coupon;
    return typeof ref === "string" ? byId.get(ref) : (ref ?? undefined);
  };
  const usable = (c: Stripe.Coupon | undefined): c is Stripe.Coupon =>
    !!c && c.valid && (c.redeem_by === null || c.redeem_by > nowSeconds);
  const withCodes = new Set(promotionCodes.map((p) => couponOf(p)?.id).filter(Boolean));
  const entries: { created: number; info: DiscountInfo }[] = [];
  for (const promotion of promotionCodes) {
    const coupon = couponOf(promotion);
    if (!promotion.active || promotion.customer !== null || !usable(coupon)) continue;
    if (promotion.expires_at !== null && promotion.expires_at <= nowSeconds) continue;
    if (promotion.max_redemptions !== null && promotion.times_redeemed >= promotion.max_redemptions) continue;
    entries.push({ created: promotion.created, info: discountInfo(coupon, tierProducts, promotion) });
  }
  for (const coupon of coupons) {
    if (withCodes.has(coupon.id) || !usable(coupon)) continue;
    entries.push({ created: coupon.created, info: discountInfo(coupon, tierProducts) });
  }
  return entries.sort((a, b) => b.created - a.created).map((e) => e.info);
}

/** One fetch of the live plans: three list calls in parallel, no retries, each with the deadline as timeout. */
export async function fetchLivePlans(
  stripe: Stripe,
  refs: Record<PaidTier, string>,
  options: { timeoutMs?: number; now?: Date } = {},
): Promise<PlansResponse> {
  const requestOptions = { maxNetworkRetries: 0, timeout: options.timeoutMs ?? env().PLANS_STRIPE_DEADLINE_MS };
  const lookupKeys = Object.values(refs).filter((ref) => !ref.startsWith("price_"));
  const byLookupKeyOnly = lookupKeys.length === PAID_TIERS.length;
  const [prices, coupons, promotionCodes] = await Promise.all([
    stripe.prices
      .list(
        { active: true, limit: 100, expand: ["data.product"], ...(byLookupKeyOnly ? { lookup_keys: lookupKeys } : {}) },
        requestOptions,
      )
      .autoPagingToArray({ limit: MAX_LISTED }),
    stripe.coupons
      .list({ limit: 100, expand: ["data.applies_to"] }, requestOptions)
      .autoPagingToArray({ limit: MAX_LISTED }),
    // All codes, not just active ones: a coupon behind an inactive code is not a public "bare" coupon.
    stripe.promotionCodes.list({ limit: 100 }, requestOptions).autoPagingToArray({ limit: MAX_LISTED }),
  ]);
  const tierPrices = pickTierPrices(prices, refs);
  const tierProducts = Object.fromEntries(
    PAID_TIERS.map((tier) => [tier, productId(tierPrices[tier].product)]),
  ) as Record<PaidTier, string>;
  return {
    plans: planInfos(tierPrices),
    discounts: discountInfos(coupons, promotionCodes, tierProducts, options.now),
    source: "stripe",
  };
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Stripe did not answer within ${ms} ms`)), ms);
    timer.unref?.();
  });
  promise.catch(() => undefined); // a late failure after the deadline is not an unhandled rejection
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

// The cache is keyed by the settings it was built from, so a changed configuration is never served stale.
let cache: { signature: string; value: PlansResponse; expiresAt: number } | undefined;
let inflight: { signature: string; promise: Promise<PlansResponse> } | undefined;

function signatureOf(settings: Env, config: BillingConfig | null): string {
  return JSON.stringify([
    config?.secretKey,
    config?.apiBase,
    config?.prices,
    settings.PLANS_STATIC_PRO_AMOUNT,
    settings.PLANS_STATIC_ULTRA_AMOUNT,
    settings.PLANS_STATIC_CURRENCY,
    settings.PLANS_STATIC_INTERVAL,
  ]);
}

/** The plans answer: from the in-process cache while fresh, else one shared fetch. Never throws. */
export async function getPlans(options: { timeoutMs?: number } = {}): Promise<PlansResponse> {
  const settings = env();
  const config = billingConfig(settings);
  const signature = signatureOf(settings, config);
  if (cache && cache.signature === signature && cache.expiresAt > Date.now()) return cache.value;
  if (inflight?.signature !== signature) {
    const promise = load(settings, config, options.timeoutMs ?? settings.PLANS_STRIPE_DEADLINE_MS).then(
      ({ value, ttlSeconds }) => {
        cache = { signature, value, expiresAt: Date.now() + ttlSeconds * 1000 };
        return value;
      },
    );
    const entry = { signature, promise };
    inflight = entry;
    void promise.finally(() => {
      if (inflight === entry) inflight = undefined;
    });
    return promise;
  }
  return inflight.promise;
}

async function load(
  settings: Env,
  config: BillingConfig | null,
  timeoutMs: number,
): Promise<{ value: PlansResponse; ttlSeconds: number }> {
  const ttlSeconds = settings.PLANS_CACHE_SECONDS;
  const stripe = getStripe(config);
  if (!config || !stripe) return { value: staticPlans(settings), ttlSeconds };
  try {
    return { value: await withDeadline(fetchLivePlans(stripe, config.prices, { timeoutMs }), timeoutMs), ttlSeconds };
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, "GET /v1/plans: serving static prices");
    return { value: staticPlans(settings), ttlSeconds: Math.min(ttlSeconds, FAILURE_RETRY_SECONDS) };
  }
}
