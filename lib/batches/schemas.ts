import { z } from "zod";
import { FORMATS, parseFormat, type Format } from "@/lib/formats/types";
import { requestLangSchema } from "@/lib/transcripts/schemas";
import { vocabularySchema } from "@/lib/asr/vocabulary";

export const createBatchSchema = z
  .object({
    links: z
      .array(z.string().max(8192))
      .max(100_000)
      .optional()
      .describe("The links, one an item (any platform POST /v1/transcript takes, mixed). Send this or `text`."),
    text: z
      .string()
      .optional()
      .describe(
        "A pasted list or the text of a TXT or CSV file: one link a line (in a CSV, the first cell of the row that is a link; a first row naming no link is its header). Blank lines and lines starting with # are passed over. Send this or `links`.",
      ),
    lang: requestLangSchema
      .default("en")
      .describe("The language every item is transcribed in, as `lang` of POST /v1/transcript"),
    vocabulary: vocabularySchema.optional(),
    webhook_url: z
      .string()
      .max(2048)
      .optional()
      .describe(
        "Optional. This https URL is sent batch.completed (with the counts) when the batch ends, signed per Standard Webhooks with the account's request signing secret (POST /v1/me/webhooks/request-secret).",
      ),
  })
  .refine((body) => (body.links === undefined) !== (body.text === undefined), {
    message: "Send exactly one of `links` (an array) and `text` (a list or a file's text).",
  })
  .meta({ id: "BatchRequest" });

export type CreateBatchRequest = z.output<typeof createBatchSchema>;

export const BATCH_STATUSES = ["queued", "running", "done", "partial", "error"] as const;
export const BATCH_ITEM_STATUSES = ["queued", "running", "done", "failed", "skipped"] as const;

export const batchItemSchema = z
  .object({
    line: z.number().int().describe("The item's line in the list (1 = first; for `links`, its place in the array)"),
    url: z.string().describe("The link as given"),
    status: z
      .enum(BATCH_ITEM_STATUSES)
      .describe(
        "queued → running → done or failed; skipped at once for a duplicate or a line with no link Verbatim takes",
      ),
    note: z.string().nullable().describe("Why it failed or was skipped"),
    job_id: z.string().nullable().describe("Its speech-recognition job (GET /v1/jobs/{job_id}), when it has one"),
    transcript_id: z.string().nullable().describe("Once done: GET /v1/transcripts/{id}"),
  })
  .meta({ id: "BatchItem" });

export type BatchItemOut = z.infer<typeof batchItemSchema>;

export const batchSchema = z
  .object({
    id: z.string(),
    status: z
      .enum(BATCH_STATUSES)
      .describe(
        "queued → running → done (nothing failed), partial (some failed) or error (every item failed); running again after a retry",
      ),
    lang: z.string(),
    total: z.number().int().describe("Items: every line that names a link, skipped ones included"),
    queued: z.number().int(),
    running: z.number().int(),
    done: z.number().int(),
    failed: z.number().int().describe("Items that failed, including those beyond the allowance: retry them"),
    skipped: z.number().int().describe("Duplicates and lines with no link Verbatim takes"),
    note: z.string().nullable().describe("Why the batch is partial or in error"),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    items: z.array(batchItemSchema).describe("Every item in list order, each with its state"),
  })
  .meta({ id: "Batch" });

export type BatchOut = z.infer<typeof batchSchema>;

export const batchParamsSchema = z.object({ batch_id: z.string().min(1).max(64) });

const formatList = z
  .string()
  .max(200)
  .transform((text, ctx): Format[] => {
    const formats = new Set<Format>();
    for (const token of text.split(",").map((t) => t.trim().toLowerCase())) {
      const format = token === "" ? null : parseFormat(token);
      if (!format) {
        ctx.addIssue({ code: "custom", message: `each format must be one of ${FORMATS.join(", ")}` });
        return z.NEVER;
      }
      formats.add(format);
    }
    return [...formats];
  });

export const batchDownloadQuerySchema = z.object({
  formats: formatList
    .default(["md"])
    .describe("Comma-separated formats, each item's transcript once in each: json, text, srt, vtt, md (default md)"),
});
