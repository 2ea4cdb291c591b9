import { z } from "zod";
import { upstreamErrorStatuses } from "@/lib/captions/upstream-errors";
import { defineEndpoint } from "@/lib/http/endpoint";
import {
  jobAcceptedSchema,
  jobParamsSchema,
  jobResponseSchema,
  languagesQuerySchema,
  languagesResponseSchema,
  transcriptFileContent,
  transcriptFormatQuerySchema,
  transcriptIdParamsSchema,
  transcriptionIdParamsSchema,
  transcriptReadQuerySchema,
  transcriptionListQuerySchema,
  transcriptionListSchema,
  transcriptRequestSchema,
  transcriptSchema,
} from "@/lib/transcripts/schemas";

const tag = "Transcripts";

export const createTranscriptEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/transcript",
  tag,
  summary: "Transcribe a link",
  description:
    "Exactly one of url, upload or audio. Answers 200 with the transcript in `format` when the platform has captions in `lang`. Charges the media duration once per source and language.",
  auth: "use",
  fieldAuth: { webhook_url: "webhooks" },
  rateLimit: "transcript",
  body: transcriptRequestSchema,
  response: transcriptSchema,
  accepted: {
    description: "Speech recognition job queued; poll Location (/v1/jobs/{job_id})",
    schema: jobAcceptedSchema,
  },
  errors: {
    ...upstreamErrorStatuses(),
    402: "Not enough monthly allowance left",
    403: "The video needs sign-in (age-restricted), or webhook_url sent with an OAuth app's or a device login's token",
    413: "The body is over 1 MiB (`payload_too_large`)",
    404: "The video does not exist or is private",
    422: "The platform's caption track is larger or longer than one transcript keeps (`response_too_large`)",
    502: "The platform failed",
    503: "Speech recognition is needed but not configured",
  },
});

export const getTranscriptEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/transcripts/{id}",
  tag,
  summary: "A transcript from the caller's history, in any format",
  description:
    "The caller's current version: their own correction (`edited: true`) when they saved one (PATCH), else the transcript as the source gave it. `revision=original` reads the original.",
  auth: "use",
  rateLimit: "account",
  params: transcriptIdParamsSchema,
  query: transcriptReadQuerySchema,
  response: transcriptSchema,
  errors: { 404: "Not in the caller's history, or no such revision" },
});

export const downloadTranscriptEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/transcripts/{id}/download",
  tag,
  summary: "Download a transcript as a file (its own Content-Type and filename)",
  description:
    "The caller's current version (their correction, when they saved one); `revision` as for GET /v1/transcripts/{id}.",
  auth: "use",
  rateLimit: "account",
  params: transcriptIdParamsSchema,
  query: transcriptReadQuerySchema,
  content: transcriptFileContent,
  errors: { 404: "Not in the caller's history" },
});

export const transcriptMediaEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/transcripts/{id}/media",
  tag,
  summary: "The uploaded file behind a transcript, for playing it back",
  description:
    "Only for transcripts of the caller's own uploads, while the upload is kept (UPLOAD_RETENTION_HOURS). Honours a single byte Range (206); with S3 storage, a redirect to a short-lived presigned GET.",
  auth: "use",
  rateLimit: "account",
  params: transcriptIdParamsSchema,
  content: { "audio/*": "binary", "video/*": "binary" },
  errors: {
    206: "The requested byte range",
    302: "With S3 storage: Location is a short-lived presigned GET of the file",
    404: "Not in the caller's history, not an upload, or the upload has expired",
    416: "The Range lies outside the file",
  },
});

export const listTranscriptionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/transcriptions",
  tag,
  summary: "The caller's transcription history",
  auth: "use",
  rateLimit: "account",
  query: transcriptionListQuerySchema,
  response: transcriptionListSchema,
});

export const deleteTranscriptionEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/me/transcriptions/{id}",
  tag,
  summary: "Remove an entry from the caller's history",
  description:
    "The transcript stays in the service's shared cache; the caller's public page of it is taken down. Requesting the same source again adds a new entry and counts against the allowance again.",
  auth: "use",
  rateLimit: "account",
  params: transcriptionIdParamsSchema,
  status: 204,
  response: null,
  errors: {
    404: "No entry with this id in the caller's history",
    409: "Still running; delete it once it has finished or failed",
  },
});

export const listLanguagesEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/languages",
  tag,
  summary: "Caption languages available for a link",
  auth: "none",
  rateLimit: "languages",
  query: languagesQuerySchema,
  response: languagesResponseSchema,
  errors: {
    ...upstreamErrorStatuses(),
    503: "`no_captions_source`: this kind of source has no captions (its transcript comes from speech recognition)",
  },
});

export const getJobEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/jobs/{job_id}",
  tag,
  summary: "A transcription job: status, stage, progress, and the transcript when done",
  auth: "use",
  rateLimit: "account",
  params: jobParamsSchema,
  query: transcriptFormatQuerySchema,
  response: jobResponseSchema,
  errors: { 404: "No such job for the caller" },
});

export const assemblyAiWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/webhooks/assemblyai",
  tag,
  summary: "AssemblyAI's completion webhook (wakes the waiting job early)",
  auth: "none",
  body: z.record(z.string(), z.unknown()),
  response: z.object({ received: z.boolean() }),
  errors: { 403: "Missing or wrong webhook header" },
});
