import Stripe from "stripe";
import { readBodyBytes } from "@/lib/http/body";
import { ApiError, errors } from "@/lib/http/errors";
import { requireStripe } from "@/lib/billing/stripe";
import { syncCustomer, type BillingEffect } from "@/lib/billing/sync";
import { log } from "@/lib/observability/logger";
import { stripeWebhooks } from "@/lib/observability/metrics";

// POST /v1/webhooks/billing. The signature is checked on the raw body; after that the payload is trusted
// for one thing only, which customer it is about: the customer is read back from Stripe and applied
// (syncCustomer), so a forged-but-signed, stale or out-of-order event can only make us catch up with Stripe.

/** Stripe's default: a signature older than five minutes is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Stripe's events are a few KiB; anything near this is not one. */
const MAX_EVENT_BYTES = 1024 * 1024;

/** The event types that can change what a customer is granted. Anything else is acknowledged and ignored. */
const HANDLED = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
  "subscription_schedule.created",
  "subscription_schedule.updated",
  "subscription_schedule.released",
  "subscription_schedule.canceled",
  "subscription_schedule.completed",
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
]);

export interface WebhookAnswer {
  received: true;
  /** `applied` (the customer was read back and stored), `duplicate`, `ignored` (type not handled) or `unknown_customer`. */
  outcome: "applied" | "duplicate" | "ignored" | "unknown_customer";
  /** The contract's event kind this delivery amounted to, if any. */
  effect: BillingEffect;
}

/** The customer id an event is about, read defensively: a signed body is still only as good as its shape. */
function customerOf(event: Stripe.Event): string | null {
  const object: unknown = (event as { data?: { object?: unknown } }).data?.object;
  if (!object || typeof object !== "object") return null;
  const customer: unknown = (object as { customer?: unknown }).customer;
  const id = typeof customer === "object" && customer !== null ? (customer as { id?: unknown }).id : customer;
  return typeof id === "string" && /^cus_\w{1,250}$/.test(id) ? id : null;
}

/** Verifies and applies one delivery, counting its outcome (verbatim_stripe_webhooks_total). */
export async function receiveBillingWebhook(request: Request): Promise<WebhookAnswer> {
  try {
    const answer = await verifyAndApply(request);
    stripeWebhooks.inc({ outcome: answer.outcome });
    return answer;
  } catch (error) {
    stripeWebhooks.inc({ outcome: error instanceof ApiError && error.status < 500 ? "rejected" : "failed" });
    throw error;
  }
}

async function verifyAndApply(request: Request): Promise<WebhookAnswer> {
  const { stripe, config } = requireStripe();
  if (!config.webhookSecret) {
    throw errors.notConfigured(
      "webhook_not_configured",
      "STRIPE_WEBHOOK_SECRET is not set, so billing webhooks cannot be verified.",
    );
  }
  const signature = request.headers.get("stripe-signature");
  if (!signature) throw new ApiError("invalid_signature", "Missing Stripe-Signature header.");
  const payload = await readBodyBytes(request, {
    maxBytes: MAX_EVENT_BYTES,
    tooLarge: () => errors.payloadTooLarge("A Stripe event is never larger than 1 MiB."),
  });
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, config.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new ApiError(
        "invalid_signature",
        "The Stripe-Signature header does not match the body, or is older than 300 s.",
      );
    }
    throw new ApiError("invalid_payload", "The body is not a Stripe event.");
  }
  if (typeof event.id !== "string" || !/^evt_\w{1,250}$/.test(event.id))
    throw new ApiError("invalid_payload", "The event has no valid id.");
  if (!HANDLED.has(event.type)) return { received: true, outcome: "ignored", effect: null };
  const customerId = customerOf(event);
  if (!customerId) return { received: true, outcome: "ignored", effect: null };
  const result = await syncCustomer(stripe, config, customerId, { event: { id: event.id, type: event.type } });
  if (result.outcome === "applied") {
    if (result.effect)
      log.info(
        { event: event.id, type: event.type, effect: result.effect, userId: result.userId },
        "Stripe event applied",
      );
    return { received: true, outcome: "applied", effect: result.effect };
  }
  return { received: true, outcome: result.outcome, effect: null };
}
