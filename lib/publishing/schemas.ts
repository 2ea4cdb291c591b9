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

export const podcastTranscriptLinkSchema = z
  .object({
    url: z.string().describe("Absolute URL of the file: stable for as long as the transcript is published"),
    type: z
      .string()
      .describe("Its MIME type, the tag's `type`: text/vtt, application/x-subrip, application/json or text/html"),
    language: z.string().describe("The transcript's language, the tag's `language`"),
    rel: z
      .enum(["captions"])
      .nullable()
      .describe("`captions` for the timed files (VTT, SRT, JSON); null for HTML, which is a transcript to read"),
  })
  .meta({ id: "PodcastTranscriptLink" });

export type PodcastTranscriptLink = z.infer<typeof podcastTranscriptLinkSchema>;

/** The Podcasting 2.0 JSON transcript format, as GET /v1/public/{slug}/transcript.json writes it. */
export const podcastTranscriptJsonSchema = z
  .object({
    version: z.string().describe("The format's version: 1.0.0"),
    segments: z.array(
      z.object({
        speaker: z.string().optional().describe("Who speaks, where the source names them"),
        startTime: z.number().describe("Seconds"),
        endTime: z.number().describe("Seconds"),
        body: z.string(),
      }),
    ),
  })
  .meta({ id: "PodcastTranscript" });

export const publicTranscriptSchema = transcriptSchema
  .extend({
    slug: z.string(),
    url: z.string().describe("The public page"),
    source_url: z.string().nullable().describe("The source link; null for uploaded files"),
    video_id: z.string().nullable().describe("The platform's id; null for uploaded files"),
    published_at: z.string(),
    podcast_transcripts: z
      .array(podcastTranscriptLinkSchema)
      .describe(
        'The transcript as files a podcast feed can link to, one `<podcast:transcript url="…" type="…" language="…" rel="captions"/>` tag each (Podcasting 2.0)',
      ),
  })
  .meta({ id: "PublicTranscript" });

export type PublicTranscript = z.infer<typeof publicTranscriptSchema>;

export const publicDownloadQuerySchema = z.object({ format: formatSchema.default("text") });
