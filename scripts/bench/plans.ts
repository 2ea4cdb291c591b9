// Figures for billing: GET /v1/plans served from the in-process cache, through the built app with
// STRIPE_* pointing at the fake Stripe (test/fakes/stripe):
// - how many Stripe calls 1,000 requests make, from a cold cache (200 at a time) and while it is fresh;
// - requests/s of GET /v1/plans against GET /health (autocannon, 10 connections, 10 s each).
import { startFakeStripe } from "../../test/fakes/stripe/server";
import { requestsPerSecond, startApp } from "./server";

async function thousandRequests(url: string, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < 1000) {
      next += 1;
      const res = await fetch(url);
      const body = (await res.json()) as { source?: string };
      if (res.status !== 200 || body.source !== "stripe")
        throw new Error(`GET /v1/plans: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function benchPlans(): Promise<Record<string, number>> {
  const stripe = await startFakeStripe();
  const pro = stripe.seedPrice({
    product: { name: "Pro" },
    unit_amount: 900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "verbatim_pro",
  });
  stripe.seedPrice({
    product: { name: "Ultra" },
    unit_amount: 2900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "verbatim_ultra",
  });
  const launch = stripe.seedCoupon({ name: "Launch", percent_off: 20, duration: "once" });
  stripe.seedPromotionCode({ coupon: launch.id as string, code: "LAUNCH20" });
  stripe.seedCoupon({
    name: "Ten off Pro",
    amount_off: 1000,
    currency: "usd",
    applies_to: { products: [pro.product as string] },
  });

  const app = await startApp(3180, {
    STRIPE_SECRET_KEY: stripe.apiKey,
    STRIPE_API_BASE: stripe.origin,
    STRIPE_PRICE_PRO: "verbatim_pro",
    STRIPE_PRICE_ULTRA: "verbatim_ultra",
    PLANS_CACHE_SECONDS: "300",
  });
  try {
    const plansUrl = `${app.baseUrl}/v1/plans`;
    stripe.resetRequests();
    await thousandRequests(plansUrl, 200);
    const coldCalls = stripe.requests.length;
    stripe.resetRequests();
    await thousandRequests(plansUrl, 10);
    const freshCalls = stripe.requests.length;

    await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
    await requestsPerSecond(plansUrl, {}, 2);
    const health = await requestsPerSecond(`${app.baseUrl}/health`);
    stripe.resetRequests();
    const plans = await requestsPerSecond(plansUrl);
    const callsDuringRun = stripe.requests.length;
    return {
      "GET /v1/plans: Stripe calls for 1,000 requests, cold cache (200 at a time)": coldCalls,
      "GET /v1/plans: Stripe calls for 1,000 more, cache fresh": freshCalls,
      "GET /health req/s": health,
      "GET /v1/plans req/s (cached)": plans,
      "plans / health ratio": plans / health,
      "GET /v1/plans: Stripe calls during the 10 s run": callsDuringRun,
    };
  } finally {
    await app.stop();
    await stripe.close();
  }
}

// `npx tsx scripts/bench/plans.ts` runs this suite alone (after `npm run build`).
if (process.argv[1]?.endsWith("plans.ts")) {
  const figures = await benchPlans();
  for (const [label, value] of Object.entries(figures))
    console.log(`${label.padEnd(72)} ${Number.isInteger(value) ? value : value.toFixed(2)}`);
}
