import { defineEndpoint } from "@/lib/http/endpoint";
import {
  createWebhookSchema,
  deliveryParamsSchema,
  requestSecretSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookParamsSchema,
} from "@/lib/webhooks/schemas";

const tag = "Webhooks";
const signing =
  "Events are POSTed as JSON `{type, timestamp, data}` with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`); verify them with any Standard Webhooks library. Event types: transcript.completed, transcript.failed (jobs answered 202 only; a 200 answer sends nothing), import.completed, batch.completed, alert.matched. A 2xx answer is success; 410 disables the endpoint; anything else is retried with exponential backoff for about a day.";

export const listWebhooksEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/webhooks",
  tag,
  summary: "The caller's webhook endpoints (secrets masked)",
  auth: "webhooks",
  rateLimit: "account",
  response: webhookEndpointListSchema,
});

export const createWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/webhooks",
  tag,
  summary: "Add a webhook endpoint; its signing secret is returned once",
  description: signing,
  auth: "webhooks",
  rateLimit: "account",
  body: createWebhookSchema,
  status: 201,
  response: webhookEndpointSchema,
  errors: {
    409: "The account has an endpoint for this URL already (`webhook_exists`), or WEBHOOK_MAX_ENDPOINTS endpoints (`too_many_webhooks`)",
    422: "The URL is not https or not one the service calls",
  },
});

export const deleteWebhookEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/me/webhooks/{id}",
  tag,
  summary: "Remove a webhook endpoint and its deliveries",
  auth: "webhooks",
  rateLimit: "account",
  params: webhookParamsSchema,
  status: 204,
  response: null,
  errors: { 404: "No endpoint with this id" },
});

export const rotateWebhookSecretEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/webhooks/{id}/rotate-secret",
  tag,
  summary: "Replace an endpoint's signing secret (returned once); also re-enables a disabled endpoint",
  description:
    "For 24 hours after a rotation, deliveries carry two signatures in `webhook-signature`: one with the new secret, one with the previous one.",
  auth: "webhooks",
  rateLimit: "account",
  params: webhookParamsSchema,
  response: webhookEndpointSchema,
  errors: { 404: "No endpoint with this id" },
});

export const testWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/webhooks/{id}/test",
  tag,
  summary: "Send a `webhook.test` event to the endpoint now",
  auth: "webhooks",
  rateLimit: "account",
  params: webhookParamsSchema,
  status: 202,
  response: webhookDeliverySchema,
  errors: { 404: "No endpoint with this id", 409: "The endpoint is disabled, or too many deliveries are waiting" },
});

export const listWebhookDeliveriesEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/webhooks/{id}/deliveries",
  tag,
  summary: "The endpoint's 50 most recent deliveries",
  auth: "webhooks",
  rateLimit: "account",
  params: webhookParamsSchema,
  response: webhookDeliveryListSchema,
  errors: { 404: "No endpoint with this id" },
});

export const redeliverWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/webhooks/{id}/deliveries/{delivery_id}/redeliver",
  tag,
  summary: "Send a delivery again now (same webhook-id and payload)",
  auth: "webhooks",
  rateLimit: "account",
  params: deliveryParamsSchema,
  status: 202,
  response: webhookDeliverySchema,
  errors: { 404: "No such delivery", 409: "The endpoint is disabled" },
});

export const rotateRequestSecretEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/webhooks/request-secret",
  tag,
  summary: "Create or replace the secret that signs deliveries to per-request webhook_url (returned once)",
  description:
    "POST /v1/transcript and POST /v1/import accept an optional `webhook_url` once this secret exists. For 24 hours after a replacement, deliveries carry two signatures in `webhook-signature`: one with the new secret, one with the previous one.",
  auth: "webhooks",
  rateLimit: "account",
  response: requestSecretSchema,
});
