import { defineEndpoint } from "@/lib/http/endpoint";
import {
  billingWebhookResponseSchema,
  changeTierRequestSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  plansResponseSchema,
  portalResponseSchema,
} from "@/lib/billing/schemas";
import { subscriptionResponseSchema } from "@/lib/usage/schemas";

const tag = "Billing";

export const getPlansEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/plans",
  tag,
  summary: "Plans and active discounts",
  description:
    "Live prices of each tier and the active coupons and promotion codes from Stripe, cached in-process for a few minutes. `source` is `static` (settings' prices, no discounts) when billing is off or Stripe does not answer in time.",
  auth: "none",
  rateLimit: "publicRead",
  response: plansResponseSchema,
});

const billingOff = "Billing is not configured on this server (`billing_not_configured`)";
const noSubscription = "The caller has no subscription (`no_subscription`)";
const stripeFailed =
  "Stripe did not complete the request (`upstream_failed`); try again, POST /v1/me/subscription/reconcile shows where things stand";

export const checkoutEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/checkout",
  tag,
  summary: "Start a subscription: a Stripe Checkout page",
  description:
    "A Stripe Checkout Session in subscription mode for `tier` (promotion codes allowed); send the browser to `url`. Stripe returns it to /dashboard/billing. The Stripe customer is created once per user and reused.",
  auth: "billing",
  rateLimit: "billing",
  body: checkoutRequestSchema,
  response: checkoutResponseSchema,
  errors: {
    409: "Already subscribed: use POST /v1/me/subscription/change (`already_subscribed`)",
    502: stripeFailed,
    503: billingOff,
  },
});

export const reconcileSubscriptionEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/subscription/reconcile",
  tag,
  summary: "Read the subscription back from Stripe and apply it",
  description:
    "Sets the tier to what Stripe grants and surfaces a scheduled cancel or change. Idempotent; a no-op without billing or a Stripe customer.",
  auth: "billing",
  rateLimit: "billing",
  response: subscriptionResponseSchema,
  errors: { 502: stripeFailed },
});

export const cancelSubscriptionEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/subscription/cancel",
  tag,
  summary: "Cancel at the end of the period (the tier is kept until then)",
  description: "Drops a scheduled tier change. Calling it again changes nothing.",
  auth: "billing",
  rateLimit: "billing",
  response: subscriptionResponseSchema,
  errors: { 409: noSubscription, 502: stripeFailed, 503: billingOff },
});

export const resumeSubscriptionEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/subscription/resume",
  tag,
  summary: "Undo a scheduled cancel",
  auth: "billing",
  rateLimit: "billing",
  response: subscriptionResponseSchema,
  errors: { 409: noSubscription, 502: stripeFailed, 503: billingOff },
});

export const changeTierEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/subscription/change",
  tag,
  summary: "Switch to another paid tier",
  description:
    "An upgrade applies at once and invoices the prorated difference; a downgrade is scheduled for the end of the period (`pending_tier`, `pending_change_at`). Asking for the current tier undoes a scheduled change. The answer is read back from Stripe.",
  auth: "billing",
  rateLimit: "billing",
  body: changeTierRequestSchema,
  response: subscriptionResponseSchema,
  errors: {
    409: "No subscription (`no_subscription`), already on that tier (`same_tier`), or a cancel is scheduled and must be resumed first (`cancel_scheduled`)",
    502: stripeFailed,
    503: billingOff,
  },
});

export const undoTierChangeEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/me/subscription/change",
  tag,
  summary: "Drop a scheduled tier change",
  description:
    "`pending_tier` and `pending_change_at` become null; a scheduled cancel is untouched. Without a scheduled change it changes nothing.",
  auth: "billing",
  rateLimit: "billing",
  response: subscriptionResponseSchema,
  errors: { 409: noSubscription, 502: stripeFailed, 503: billingOff },
});

export const portalEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/portal",
  tag,
  summary: "A Stripe customer portal link",
  description:
    "Deviation from the contract, which names only 404 (no billing account): a server with billing off answers 503 `billing_not_configured`, as every billing operation does, because no user has a billing account to be missing and the cause is the server's configuration, not the caller's.",
  auth: "billing",
  rateLimit: "billing",
  response: portalResponseSchema,
  errors: { 404: "The caller has no billing account yet (`no_billing_account`)", 502: stripeFailed, 503: billingOff },
});

export const billingWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/webhooks/billing",
  tag,
  summary: "Stripe's webhook",
  description:
    "Verifies `Stripe-Signature` on the raw body (300 s tolerance), processes each event id once, and applies the customer's subscription as read back from Stripe. 400 for a bad or stale signature; 500 when applying fails, so Stripe retries.",
  auth: "none",
  response: billingWebhookResponseSchema,
  errors: {
    400: "Bad or stale signature (`invalid_signature`)",
    500: "Applying the event failed (`internal_error`); Stripe sends it again",
    503: billingOff,
  },
});
