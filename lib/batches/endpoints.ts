import { defineEndpoint } from "@/lib/http/endpoint";
import { batchDownloadQuerySchema, batchParamsSchema, batchSchema, createBatchSchema } from "@/lib/batches/schemas";

const notFound = { 404: "No such batch in this account (another account's batch answers the same)" };

export const createBatchEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/batches",
  tag: "Batches",
  summary: "Transcribe a list of up to a thousand links (pasted, or a TXT or CSV file's text) as one batch",
  description:
    "Answers the batch at once (201); its items run as durable jobs, at most BATCH_CONCURRENCY of the account's at a time, each transcribed exactly as POST /v1/transcript would (captions at once, else speech recognition) and charged once as that call is. Any platform, mixed. A duplicate (the same video however written) or a line with no link Verbatim takes is an item `skipped` with a note, never a refusal. Follow it with GET /v1/batches/{batch_id}; batch.completed is sent when it ends.",
  auth: "batches",
  fieldAuth: { webhook_url: "webhooks" },
  rateLimit: "import",
  body: createBatchSchema,
  // A list of BATCH_MAX_BYTES (1 MiB at most) in a JSON string; the list's own size is checked against the setting.
  maxBodyBytes: 3 * 1024 * 1024,
  status: 201,
  response: batchSchema,
  errors: {
    403: "An OAuth app's or a device login's token: batches are read-only to delegated credentials",
    413: "More than BATCH_MAX_LINKS links, or a list larger than BATCH_MAX_BYTES (`payload_too_large`)",
    422: "Neither or both of `links` and `text`, or a list with no link at all",
  },
});

export const getBatchEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/batches/{batch_id}",
  tag: "Batches",
  summary: "One batch: its status, its done/failed/queued/running/skipped counts and every item's state",
  description:
    "Items in list order, each with its note (why it failed or was skipped), its job while speech recognition runs, and its transcript once done.",
  auth: "use",
  rateLimit: "account",
  params: batchParamsSchema,
  response: batchSchema,
  errors: notFound,
});

export const retryBatchEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/batches/{batch_id}/retry",
  tag: "Batches",
  summary: "Queue every failed item of a batch again",
  description:
    "Each failed item goes back to `queued`, its note cleared, and the batch runs again if it had ended (batch.completed is sent again when it ends). Each is transcribed as the first time, with the same allowance rules: a failed transcription was never charged (or was refunded), so an item is charged once, when it succeeds. A batch with nothing failed is answered unchanged.",
  auth: "batches",
  rateLimit: "account",
  params: batchParamsSchema,
  response: batchSchema,
  errors: notFound,
});

export const downloadBatchEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/batches/{batch_id}/download",
  tag: "Batches",
  summary: "Every result of a batch as one zip, in the chosen formats",
  description:
    "A zip streamed as it is built: each done item's transcript once in each of `formats`, named after its line (`0001 Title.srt`), as the account sees it (its corrections); `md` is a note with front matter, as POST /v1/exports writes it. Items not done are not in it. `X-Batch-Done` says how many items it holds.",
  auth: "use",
  rateLimit: "export",
  params: batchParamsSchema,
  query: batchDownloadQuerySchema,
  content: { "application/zip": "binary" },
  errors: notFound,
});
