import { z } from "zod";
import { MAX_WEBHOOK_URL_LENGTH } from "@/lib/webhooks/check-url";

// The event types are part of the wire contract, so they live here; events.ts builds the payloads and
// imports them (the other way round was an import cycle).
export const WEBHOOK_EVENT_TYPES = [
  "transcript.completed",
  "transcript.failed",
  "import.completed",
  "alert.matched",
  "batch.completed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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
      .describe(
        "The signing secret (`whsec_…`, Standard Webhooks): in full only in the answer that creates or rotates it, masked otherwise",
      ),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .describe("Why deliveries stopped (410 Gone, or failing for days); re-enable by creating the endpoint again"),
    failing_since: z.string().nullable().describe("First failed attempt since the last success"),
    created_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

export type WebhookEndpointOut = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z
  .object({ endpoints: z.array(webhookEndpointSchema) })
  .meta({ id: "WebhookEndpointList" });

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
    last_status_code: z
      .number()
      .int()
      .nullable()
      .describe("The receiver's HTTP status on the last attempt; null when it did not answer"),
    last_error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookDeliveryListSchema = z
  .object({ deliveries: z.array(webhookDeliverySchema) })
  .meta({ id: "WebhookDeliveryList" });

export const requestSecretSchema = z
  .object({
    secret: z.string().describe("The signing secret for per-request `webhook_url`s (`whsec_…`); shown once"),
    created_at: z.string(),
  })
  .meta({ id: "WebhookRequestSecret" });

// The events themselves (POSTed to endpoints; the `webhooks` section of /openapi.json).
const envelope = <T extends z.ZodType>(type: z.ZodType, data: T) =>
  z.object({ type, timestamp: z.string().describe("When the event happened (ISO 8601)"), data });

export const transcriptEventSchema = envelope(
  z.enum(["transcript.completed", "transcript.failed"]),
  z.object({
    job_id: z
      .string()
      .nullable()
      .describe(
        "The speech-recognition job; null for a followed item transcribed at once (captions, a publisher's transcript)",
      ),
    follow_id: z
      .string()
      .optional()
      .describe("Present for an item of a followed show: the follow (GET /v1/follows/{id}) that found it"),
    status: z.enum(["done", "error"]),
    platform: z.string(),
    video_id: z.string(),
    source_url: z.string(),
    lang: z.string(),
    transcript_id: z.string().nullable().describe("GET /v1/transcripts/{id} (done only)"),
    duration_seconds: z.number().nullable(),
    job_url: z.string().nullable().describe("GET it for the job and its transcript in any format (null without a job)"),
    transcript_url: z.string().nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe("Why the job failed (transcript.failed only)"),
  }),
).meta({ id: "TranscriptEvent" });

export const importEventSchema = envelope(
  z.literal("import.completed"),
  z.object({
    batch_id: z.string(),
    status: z.enum(["done", "partial", "error"]),
    source_url: z.string(),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    note: z.string().nullable(),
    import_url: z.string(),
    items_url: z.string(),
  }),
).meta({ id: "ImportEvent" });

export const batchEventSchema = envelope(
  z.literal("batch.completed"),
  z.object({
    batch_id: z.string(),
    status: z.enum(["done", "partial", "error"]),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    note: z.string().nullable(),
    batch_url: z.string().describe("GET it for the batch and each item's state"),
    download_url: z.string().describe("GET it for every result as one zip (`formats` chooses them)"),
  }),
).meta({ id: "BatchEvent" });

export const alertMomentSchema = z
  .object({
    start: z.number().describe("Start of the matching line, in seconds"),
    end: z.number(),
    segment_index: z.int().describe("The matching line: its index in the transcript's segments"),
    text: z.string().describe("Words around the match"),
    links: z.object({
      source: z.string().nullable().describe("The moment on the platform, where it has such links"),
      viewer: z.string().nullable().describe("The dashboard's viewer at the moment (the owner's library)"),
      page: z.string().nullable().describe("The public page at the moment's line, when published"),
    }),
  })
  .meta({ id: "AlertMoment" });

export const alertMatchedSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string().nullable(),
    platform: z.string(),
    source_url: z.string().nullable(),
    moments: z.array(alertMomentSchema).describe("Its matching moments, best first (at most 3)"),
    matched_at: z.string(),
  })
  .meta({ id: "AlertMatched" });

export const alertEventSchema = envelope(
  z.literal("alert.matched"),
  z.object({
    alert_id: z.string(),
    alert_name: z.string(),
    query: z.string(),
    digest: z
      .boolean()
      .describe(
        "true: the matches past the alert's day's cap (ALERT_MAX_MATCHES_PER_DAY), sent together after the day",
      ),
    matches: z.array(alertMatchedSchema).describe("One transcript; a digest's, several"),
    alert_url: z.string().describe("GET it for the alert"),
  }),
).meta({ id: "AlertEvent" });

export const testEventSchema = envelope(
  z.literal("webhook.test"),
  z.object({ endpoint_id: z.string(), message: z.string() }),
).meta({ id: "WebhookTestEvent" });

/** What /openapi.json lists under `webhooks`: each event, its summary and payload. */
export const WEBHOOK_EVENT_DOCS = [
  {
    type: "transcript.completed",
    summary: "A speech-recognition job (a 202 answer) finished",
    schema: transcriptEventSchema,
  },
  { type: "transcript.failed", summary: "A speech-recognition job ended in error", schema: transcriptEventSchema },
  {
    type: "import.completed",
    summary: "An import ended (done, partial or error), with its counts",
    schema: importEventSchema,
  },
  {
    type: "batch.completed",
    summary: "A batch of links ended (done, partial or error), with its counts; again after a retry ends",
    schema: batchEventSchema,
  },
  {
    type: "alert.matched",
    summary: "A saved search (an alert) matched a transcript newly in its scope",
    schema: alertEventSchema,
  },
  { type: "webhook.test", summary: "Sent by POST /v1/me/webhooks/{id}/test", schema: testEventSchema },
] as const;
