import type Stripe from "stripe";
import { PAID_TIERS, type BillingConfig, type PaidTier } from "@/lib/billing/stripe";

// The paid tiers' Stripe prices. Settings name each by price id or lookup key; Checkout and subscription
// updates need ids, so lookup keys are resolved once and kept for a few minutes.

const RESOLVED_FOR_MS = 5 * 60_000;
let resolved: { signature: string; ids: Record<PaidTier, string>; expiresAt: number } | undefined;

/** Each paid tier's price id (one Stripe call when a setting is a lookup key, then cached). */
export async function tierPriceIds(stripe: Stripe, config: BillingConfig): Promise<Record<PaidTier, string>> {
  const signature = JSON.stringify([config.secretKey, config.apiBase, config.prices]);
  if (resolved?.signature === signature && resolved.expiresAt > Date.now()) return resolved.ids;
  const lookupKeys = PAID_TIERS.map((tier) => config.prices[tier]).filter((ref) => !ref.startsWith("price_"));
  const found =
    lookupKeys.length > 0 ? (await stripe.prices.list({ lookup_keys: lookupKeys, active: true, limit: 10 })).data : [];
  const ids = {} as Record<PaidTier, string>;
  for (const tier of PAID_TIERS) {
    const ref = config.prices[tier];
    const id = ref.startsWith("price_") ? ref : found.find((price) => price.lookup_key === ref)?.id;
    if (!id)
      throw new Error(`STRIPE_PRICE_${tier.toUpperCase()} (${ref}) is not an active price in this Stripe account`);
    ids[tier] = id;
  }
  resolved = { signature, ids, expiresAt: Date.now() + RESOLVED_FOR_MS };
  return ids;
}

/** The tier a price grants (by id, or by the configured lookup key), or null for a price we do not sell. */
export function tierOfPrice(
  price: Stripe.Price | string,
  ids: Record<PaidTier, string>,
  config: BillingConfig,
): PaidTier | null {
  const id = typeof price === "string" ? price : price.id;
  const lookupKey = typeof price === "string" ? null : price.lookup_key;
  return (
    PAID_TIERS.find((tier) => ids[tier] === id || (lookupKey !== null && config.prices[tier] === lookupKey)) ?? null
  );
}
