import type { FakeStripe } from "./server";

// What the e2e runs and the standalone fake sell: two monthly prices named by lookup key, as the app is
// configured with STRIPE_PRICE_PRO=verbatim_pro and STRIPE_PRICE_ULTRA=verbatim_ultra, and a 20 % coupon
// behind the promotion code LAUNCH20.
export function seedVerbatimCatalog(fake: FakeStripe) {
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
  const launch = fake.seedCoupon({ name: "Launch", percent_off: 20, duration: "once" });
  fake.seedPromotionCode({ coupon: launch.id as string, code: "LAUNCH20" });
  return { pro, ultra, launch };
}
