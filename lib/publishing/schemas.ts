import { z } from "zod";
import { queryInt } from "@/lib/http/query";
import { formatSchema, langSchema, transcriptSchema } from "@/lib/transcripts/schemas";

export const publishRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        "The transcript's source: the link given to POST /v1/transcript, an upload's source_url (upload:<object_path>), or the source_url of an entry of GET /v1/me/transcriptions",
      ),
    lang: langSchema.default("en"),
  })
  .meta({ id: "PublishRequest" });

export type PublishRequest = z.output<typeof publishRequestSchema>;

export const publishResponseSchema = z
  .object({
    slug: z.string(),
    url: z.string().describe("The public page, /t/{slug}"),
  })
  .meta({ id: "PublishResponse" });

export type PublishResponse = z.infer<typeof publishResponseSchema>;

/** Slugs are lower-case words and digits joined by hyphens; anything else cannot exist (→ 404, not 422). */
export const slugParamsSchema = z.object({ slug: z.string().max(200) });

export const PUBLIC_INDEX_PAGE = 100;
export const PUBLIC_INDEX_MAX_PAGE = 1000;

export const publicIndexQuerySchema = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe("next_cursor of the previous page; absent for the first (newest) page"),
  limit: queryInt(z.int().min(1).max(PUBLIC_INDEX_MAX_PAGE).default(PUBLIC_INDEX_PAGE)),
});

export const publicIndexEntrySchema = z
  .object({ slug: z.string(), updated_at: z.string().nullable() })
  .meta({ id: "PublicIndexEntry" });

export const publicIndexResponseSchema = z
  .object({
    items: z.array(publicIndexEntrySchema),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "PublicIndexResponse" });

export type PublicIndexResponse = z.infer<typeof publicIndexResponseSchema>;

export const publicTranscriptSchema = transcriptSchema
  .extend({
    slug: z.string(),
    url: z.string().describe("The public page"),
    source_url: z.string().nullable().describe("The source link; null for uploaded files"),
    video_id: z.string().nullable().describe("The platform's id; null for uploaded files"),
    published_at: z.string(),
  })
  .meta({ id: "PublicTranscript" });

export type PublicTranscript = z.infer<typeof publicTranscriptSchema>;

export const publicDownloadQuerySchema = z.object({ format: formatSchema.default("text") });
