// The events Verbatim sends (Standard Webhooks payload shape: `{ type, timestamp, data }`). They carry ids,
// status, links to fetch the result and an error code where one applies; never the transcript itself.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { env } from "@/lib/env";
import type {
  batchEventSchema,
  importEventSchema,
  transcriptEventSchema,
  WebhookEventType,
} from "@/lib/webhooks/schemas";
/** Sent by "send a test event"; endpoints receive it whatever types they chose. */
export const TEST_EVENT_TYPE = "webhook.test";

export interface WebhookPayload {
  type: WebhookEventType | typeof TEST_EVENT_TYPE;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A new `webhook-id`: stable across retries and redeliveries of the same message. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

const link = (path: string) => new URL(path, env().APP_URL).href;

export interface TranscriptJobEvent {
  /** null: a followed item transcribed at once, with no job. */
  jobId: string | null;
  /** The follow whose new item this is. */
  followId?: string | null;
  platform: string;
  videoId: string;
  sourceUrl: string;
  lang: string;
  transcriptId?: string | null;
  durationSeconds?: number | null;
  error?: { code: string; message: string } | null;
}

export function transcriptEvent(
  type: "transcript.completed" | "transcript.failed",
  job: TranscriptJobEvent,
): WebhookPayload & z.infer<typeof transcriptEventSchema> {
  return {
    type,
    timestamp: new Date().toISOString(),
    data: {
      job_id: job.jobId,
      ...(job.followId ? { follow_id: job.followId } : {}),
      status: type === "transcript.completed" ? ("done" as const) : ("error" as const),
      platform: job.platform,
      video_id: job.videoId,
      source_url: job.sourceUrl,
      lang: job.lang,
      transcript_id: job.transcriptId ?? null,
      duration_seconds: job.durationSeconds ?? null,
      job_url: job.jobId ? link(`/v1/jobs/${job.jobId}`) : null,
      transcript_url: job.transcriptId ? link(`/v1/transcripts/${job.transcriptId}`) : null,
      error: job.error ?? null,
    },
  };
}

export interface ImportEvent {
  batchId: string;
  sourceUrl: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  note: string | null;
}

export function importEvent(batch: ImportEvent): WebhookPayload & z.infer<typeof importEventSchema> {
  return {
    type: "import.completed",
    timestamp: new Date().toISOString(),
    data: {
      batch_id: batch.batchId,
      status: batch.status as "done" | "partial" | "error",
      source_url: batch.sourceUrl,
      total: batch.total,
      done: batch.done,
      failed: batch.failed,
      skipped: batch.skipped,
      note: batch.note,
      import_url: link(`/v1/import/${batch.batchId}`),
      items_url: link(`/v1/import/${batch.batchId}/items`),
    },
  };
}

export interface BatchEvent {
  batchId: string;
  status: string;
  done: number;
  failed: number;
  skipped: number;
  queued: number;
  running: number;
  note: string | null;
}

export function batchEvent(batch: BatchEvent): WebhookPayload & z.infer<typeof batchEventSchema> {
  return {
    type: "batch.completed",
    timestamp: new Date().toISOString(),
    data: {
      batch_id: batch.batchId,
      status: batch.status as "done" | "partial" | "error",
      total: batch.queued + batch.running + batch.done + batch.failed + batch.skipped,
      done: batch.done,
      failed: batch.failed,
      skipped: batch.skipped,
      note: batch.note,
      batch_url: link(`/v1/batches/${batch.batchId}`),
      download_url: link(`/v1/batches/${batch.batchId}/download`),
    },
  };
}
