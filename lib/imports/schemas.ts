import { z } from "zod";
import { MAX_SOURCE_URL_LENGTH } from "@/lib/sources";
import { langSchema } from "@/lib/transcripts/schemas";

export const importRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(MAX_SOURCE_URL_LENGTH)
      .describe("A podcast feed (RSS or Atom), an Apple Podcasts show link, or a YouTube playlist or channel URL"),
    lang: langSchema.default("en").describe("The language every item is transcribed in, as `lang` of POST /v1/transcript"),
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
      .describe("queued → running → done (nothing failed), partial (some failed), or error (the source could not be listed, or every item failed)"),
    note: z.string().nullable().describe("Why the batch is partial or in error"),
    created_at: z.string().nullable(),
  })
  .meta({ id: "ImportBatchOut" });

export type ImportBatchOut = z.infer<typeof importBatchSchema>;

export const batchParamsSchema = z.object({ batch_id: z.string().min(1).max(64) });
