import "server-only";
import Stripe from "stripe";
import { env, stripeSettingsComplete, type Env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";

// The Stripe client, from settings. Billing is on when STRIPE_SECRET_KEY and both tier prices are set;
// STRIPE_API_BASE points the SDK at another Stripe-compatible server (the tests' fake, a self-hosted mock).

export const PAID_TIERS = ["pro", "ultra"] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

export interface BillingConfig {
  secretKey: string;
  /** The API base as given (e.g. http://127.0.0.1:12111), or null for api.stripe.com. */
  apiBase: string | null;
  webhookSecret: string | null;
  /** Each paid tier's price: a price id (`price_…`) or a lookup key. */
  prices: Record<PaidTier, string>;
}

/** The billing settings, or null when billing is off (the embedded default). */
export function billingConfig(settings: Env = env()): BillingConfig | null {
  const { STRIPE_SECRET_KEY, STRIPE_PRICE_PRO, STRIPE_PRICE_ULTRA } = settings;
  if (!stripeSettingsComplete(settings) || !STRIPE_SECRET_KEY || !STRIPE_PRICE_PRO || !STRIPE_PRICE_ULTRA) return null;
  return {
    secretKey: STRIPE_SECRET_KEY,
    apiBase: settings.STRIPE_API_BASE ?? null,
    webhookSecret: settings.STRIPE_WEBHOOK_SECRET ?? null,
    prices: { pro: STRIPE_PRICE_PRO, ultra: STRIPE_PRICE_ULTRA },
  };
}

export function billingConfigured(settings: Env = env()): boolean {
  return billingConfig(settings) !== null;
}

/** host/port/protocol for the SDK from an API base URL (the SDK has no base-URL option). */
export function sdkAddress(apiBase: string | null): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  if (url.pathname !== "/" && url.pathname !== "")
    throw new Error("STRIPE_API_BASE must not have a path: the SDK adds /v1 itself");
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

export function createStripeClient(options: {
  secretKey: string;
  apiBase?: string | null;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}): Stripe {
  return new Stripe(options.secretKey, {
    ...sdkAddress(options.apiBase ?? null),
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
    appInfo: { name: "Verbatim" },
  });
}

let cached: { signature: string; client: Stripe } | undefined;

/** The app's Stripe client (one per process and settings), or null when billing is off. */
export function getStripe(config: BillingConfig | null = billingConfig()): Stripe | null {
  if (!config) return null;
  const signature = `${config.secretKey}\u0000${config.apiBase ?? ""}`;
  if (cached?.signature !== signature)
    cached = { signature, client: createStripeClient({ secretKey: config.secretKey, apiBase: config.apiBase }) };
  return cached.client;
}

/** The Stripe client for operations that need billing: 503 `billing_not_configured` when it is off. */
export function requireStripe(): { stripe: Stripe; config: BillingConfig } {
  const config = billingConfig();
  const stripe = getStripe(config);
  if (!config || !stripe) {
    throw errors.notConfigured(
      "billing_not_configured",
      "Billing is not configured on this server: set STRIPE_SECRET_KEY, STRIPE_PRICE_PRO and STRIPE_PRICE_ULTRA.",
    );
  }
  return { stripe, config };
}

/**
 * Runs a billing operation and turns a failure of Stripe's (unreachable, 5xx, a refused request) into a
 * 502 the caller can act on. What Stripe did change is read back by the next webhook or reconcile.
 */
export async function stripeOperation<T>(name: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.error(
      { operation: name, type: error.type, status: error.statusCode, code: error.code, err: error.message },
      "Stripe request failed",
    );
    throw errors.upstream(
      `Stripe did not complete the request (${error.message}). Try again; POST /v1/me/subscription/reconcile shows where your subscription stands.`,
    );
  }
}
