import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { MAX_WEBHOOK_URL_LENGTH } from "@/lib/webhooks/check-url";

export const eventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

export const createWebhookSchema = z
  .object({
    url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).describe("https URL the events are POSTed to"),
    event_types: z
      .array(eventTypeSchema)
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .default([...WEBHOOK_EVENT_TYPES])
      .describe("The events this endpoint receives (default: all)"),
  })
  .meta({ id: "WebhookEndpointCreate" });

export type CreateWebhookRequest = z.output<typeof createWebhookSchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    event_types: z.array(z.string()),
    secret: z
      .string()
      .describe("The signing secret (`whsec_…`, Standard Webhooks): in full only in the answer that creates or rotates it, masked otherwise"),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe("Why deliveries stopped (410 Gone, or failing for days); re-enable by creating the endpoint again"),
    failing_since: z.string().nullable().describe("First failed attempt since the last success"),
    created_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

export type WebhookEndpointOut = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) }).meta({ id: "WebhookEndpointList" });

export const webhookParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const deliveryParamsSchema = z.object({ id: z.string().min(1).max(64), delivery_id: z.string().min(1).max(64) });

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    webhook_id: z.string().describe("The `webhook-id` header: the same on every attempt and redelivery"),
    event_type: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable().describe("The receiver's HTTP status on the last attempt; null when it did not answer"),
    last_error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) }).meta({ id: "WebhookDeliveryList" });

export const requestSecretSchema = z
  .object({
    secret: z.string().describe("The signing secret for per-request `webhook_url`s (`whsec_…`); shown once"),
    created_at: z.string(),
  })
  .meta({ id: "WebhookRequestSecret" });
