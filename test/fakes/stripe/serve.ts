// The fake Stripe as a process of its own, for e2e runs and manual tries:
// `tsx test/fakes/stripe/serve.ts 3127 [webhookUrl]`. Seeds two monthly prices with lookup keys
// `verbatim_pro` (900 usd) and `verbatim_ultra` (2900 usd), and a 20 % coupon with the promotion code
// LAUNCH20. With a webhook URL, every change (API calls and the hosted Checkout page's Pay button) is
// delivered there, signed with STRIPE_WEBHOOK_SECRET (default whsec_fake_e2e). Point the app at it with
// STRIPE_API_BASE=http://127.0.0.1:<port>, STRIPE_SECRET_KEY=sk_test_fake_verbatim,
// STRIPE_PRICE_PRO=verbatim_pro, STRIPE_PRICE_ULTRA=verbatim_ultra.
import { seedVerbatimCatalog } from "./catalog";
import { startFakeStripe } from "./server";

const port = Number(process.argv[2] ?? 3127);
const webhookUrl = process.argv[3];
const secret = process.env.STRIPE_WEBHOOK_SECRET || "whsec_fake_e2e";

const fake = await startFakeStripe({ port, webhook: webhookUrl ? { url: webhookUrl, secret, auto: true } : undefined });
seedVerbatimCatalog(fake);
console.log(`fake Stripe on ${fake.origin} (key ${fake.apiKey}${webhookUrl ? `, webhooks to ${webhookUrl}` : ""})`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
