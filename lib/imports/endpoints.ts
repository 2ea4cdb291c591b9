import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import {
  batchParamsSchema,
  importBatchSchema,
  importItemsQuerySchema,
  importItemSchema,
  importItemsResponseSchema,
  importRequestSchema,
  importStartSchema,
  retryImportItemRequestSchema,
} from "@/lib/imports/schemas";

export const startImportEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/import",
  tag: "Imports",
  summary: "Transcribe a whole podcast feed, YouTube playlist or channel",
  description:
    "Answers `{batch_id}` at once; the batch runs as a durable job. It lists the source (a feed's episodes with audio, or the playlist's " +
    "videos through yt-dlp's flat-playlist mode; at most IMPORT_MAX_ITEMS), skips items already in the caller's history (`skipped`), and " +
    "transcribes the rest as POST /v1/transcript would (captions or a published transcript at once, else speech recognition), at most " +
    "IMPORT_CONCURRENCY at a time per user. Items beyond the allowance are `failed` with a note, never dropped. Follow it with GET /v1/import/{batch_id}.",
  auth: "use",
  fieldAuth: { webhook_url: "webhooks" },
  rateLimit: "import",
  body: importRequestSchema,
  response: importStartSchema,
  errors: {
    403: "webhook_url sent with an OAuth app's or a device login's token",
    422: "The URL is not a feed, Apple Podcasts show, or YouTube playlist/channel URL (or is internal)",
  },
});

export const listImportsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/import",
  tag: "Imports",
  summary: "The caller's import batches, newest first",
  description: "At most the 100 newest batches, with live counts.",
  auth: "use",
  rateLimit: "account",
  response: z.array(importBatchSchema),
});

export const getImportEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/import/{batch_id}",
  tag: "Imports",
  summary: "One import batch with live counts and status",
  auth: "use",
  rateLimit: "account",
  params: batchParamsSchema,
  response: importBatchSchema,
  errors: { 404: "No such batch for this user (another user's batch answers the same)" },
});

export const listImportItemsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/import/{batch_id}/items",
  tag: "Imports",
  summary: "One batch's items in listing order, each with its state and, once finished, its transcript",
  description:
    "Keyset pagination: each page (`limit`, default 50, at most 200) ends with `next_cursor`; pass it as `cursor` for the next page, " +
    "until it is null. Items come in the source's order (`position`). A running item carries its `job_id`; a done or skipped one the " +
    "`transcript_id` of its entry in the caller's history (GET /v1/transcripts/{id}); a failed or skipped one a `note` saying why.",
  auth: "use",
  rateLimit: "account",
  params: batchParamsSchema,
  query: importItemsQuerySchema,
  response: importItemsResponseSchema,
  errors: { 404: "No such batch for this user (another user's batch answers the same)" },
});

export const retryImportItemEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/import/{batch_id}/items/retry",
  tag: "Imports",
  summary: "Queue a failed item of a batch again",
  description:
    "The item named by `guid` goes back to `queued`, its note cleared, and the batch runs again if it had ended (its counts and " +
    "status follow; import.completed is sent again when it ends). It is transcribed exactly as the first time, with the same " +
    "allowance rules. An item that is not `failed` is answered as it is, unchanged.",
  auth: "use",
  rateLimit: "account",
  params: batchParamsSchema,
  body: retryImportItemRequestSchema,
  response: importItemSchema,
  errors: { 404: "No such batch for this user, or no item with that guid in it" },
});
