import { z } from "zod";
import { queryInt } from "@/lib/http/query";
import { MAX_SOURCE_URL_LENGTH } from "@/lib/sources";
import { requestLangSchema } from "@/lib/transcripts/schemas";
import { vocabularySchema } from "@/lib/asr/vocabulary";

export const importRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(MAX_SOURCE_URL_LENGTH)
      .describe("A podcast feed (RSS or Atom), an Apple Podcasts show link, or a YouTube playlist or channel URL"),
    lang: requestLangSchema
      .default("en")
      .describe("The language every item is transcribed in, as `lang` of POST /v1/transcript"),
    vocabulary: vocabularySchema.optional(),
    webhook_url: z
      .string()
      .max(2048)
      .optional()
      .describe(
        "Optional. This https URL is sent import.completed (with the counts) when the import ends, signed per Standard Webhooks with the account's request signing secret (POST /v1/me/webhooks/request-secret).",
      ),
  })
  .meta({ id: "ImportRequest" });

export type ImportRequest = z.output<typeof importRequestSchema>;

export const importStartSchema = z.object({ batch_id: z.string() }).meta({ id: "ImportStartResponse" });

export const IMPORT_STATUSES = ["queued", "running", "done", "partial", "error"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importBatchSchema = z
  .object({
    id: z.string(),
    source_url: z.string(),
    title: z.string().nullable().describe("The show's or playlist's title, once listed"),
    total: z.number().int().describe("Items found (0 until listed)"),
    done: z.number().int().describe("Items transcribed"),
    failed: z.number().int().describe("Items that failed, including those beyond the allowance"),
    skipped: z.number().int().describe("Items already in the user's history"),
    status: z
      .enum(IMPORT_STATUSES)
      .describe(
        "queued → running → done (nothing failed), partial (some failed), or error (the source could not be listed, or every item failed)",
      ),
    note: z.string().nullable().describe("Why the batch is partial or in error"),
    created_at: z.string().nullable(),
  })
  .meta({ id: "ImportBatchOut" });

export type ImportBatchOut = z.infer<typeof importBatchSchema>;

export const batchParamsSchema = z.object({ batch_id: z.string().min(1).max(64) });

export const retryImportItemRequestSchema = z
  .object({
    guid: z.string().min(1).max(2048).describe("The failed item's `guid` (from GET /v1/import/{batch_id}/items)"),
  })
  .meta({ id: "RetryImportItemRequest" });

export const IMPORT_ITEM_STATUSES = ["queued", "running", "done", "failed", "skipped"] as const;
export type ImportItemStatus = (typeof IMPORT_ITEM_STATUSES)[number];

export const IMPORT_ITEMS_PAGE = 50;
export const IMPORT_ITEMS_MAX_PAGE = 200;

export const importItemsQuerySchema = z.object({
  cursor: z.string().max(200).optional().describe("next_cursor of the previous page; absent for the first page"),
  limit: queryInt(z.int().min(1).max(IMPORT_ITEMS_MAX_PAGE).default(IMPORT_ITEMS_PAGE)),
});

export const importItemSchema = z
  .object({
    guid: z.string().describe("The episode's guid, or `youtube:<id>` for a playlist's video"),
    title: z.string(),
    url: z.string().describe("The episode's audio URL, or the video's page"),
    position: z.number().int().describe("Listing order: 0 is the source's first item"),
    status: z
      .enum(IMPORT_ITEM_STATUSES)
      .describe(
        "queued → running (being transcribed) → done | failed; skipped when the item was already in the caller's history",
      ),
    note: z
      .string()
      .nullable()
      .describe(
        "Why the item failed or was skipped; on a done item, what the publisher's own transcript file lost in reading (the transcript's source_note)",
      ),
    job_id: z
      .string()
      .nullable()
      .describe(
        "The speech-recognition job (GET /v1/jobs/{job_id}) while it runs and after; null when none was needed",
      ),
    transcript_id: z
      .string()
      .nullable()
      .describe(
        "For done and skipped items: the transcript in the caller's history (GET /v1/transcripts/{id}); null otherwise",
      ),
  })
  .meta({ id: "ImportItemOut" });

export type ImportItemOut = z.infer<typeof importItemSchema>;

export const importItemsResponseSchema = z
  .object({
    items: z.array(importItemSchema),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "ImportItemList" });

export type ImportItemsResponse = z.infer<typeof importItemsResponseSchema>;
