// The API's objects as programs use them, named from the generated schema (./openapi.ts).
import type { components, paths } from "./openapi.js";

export type Transcript = components["schemas"]["Transcript"];
/** A timed piece of a JSON transcript; `words` where the source timed each word (automatic captions, speech recognition). */
export type Segment = components["schemas"]["Segment"];
/** One word with its own time, in seconds. */
export type Word = components["schemas"]["Word"];
/** A queued job, as `transcribe(url, {wait: false})` and POST /v1/transcript's 202 give it: `{job_id, status}`. */
export type Job = components["schemas"]["Job"];
/** A job as GET /v1/jobs/{job_id} describes it: status, stage, progress, and the transcript when done. */
export type JobStatus = components["schemas"]["JobResponse"];
export type WebhookEndpoint = components["schemas"]["WebhookEndpoint"];
export type WebhookDelivery = components["schemas"]["WebhookDelivery"];
export type SignedUpload = components["schemas"]["SignedUpload"];
/** The events a webhook endpoint can subscribe to. */
export type WebhookEventType =
  paths["/v1/me/webhooks"]["post"]["requestBody"]["content"]["application/json"]["event_types"][number];
export type TranscriptFormat = Transcript["format"];
/** A segment of a correction (PATCH /v1/transcripts/{id}): `{start, end, text}`, optional `words`. */
export type EditSegment = components["schemas"]["EditSegment"];
export type TranscriptRevisionList = components["schemas"]["TranscriptRevisionList"];
export type TranscriptRevisionDiff = components["schemas"]["TranscriptRevisionDiff"];

/** The events Verbatim sends (payload `{type, timestamp, data}`), from the `webhooks` section of /openapi.json. */
export type WebhookEvent =
  | components["schemas"]["TranscriptEvent"]
  | components["schemas"]["ImportEvent"]
  | components["schemas"]["WebhookTestEvent"];
export type TranscriptEventData = components["schemas"]["TranscriptEvent"]["data"];
export type ImportEventData = components["schemas"]["ImportEvent"]["data"];
