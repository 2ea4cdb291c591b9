import { z } from "zod";
import { FORMATS, parseFormat } from "@/lib/formats/types";
import { PLATFORMS } from "@/lib/sources";
import { queryInt } from "@/lib/http/query";
import { vocabularySchema } from "@/lib/asr/vocabulary";

const MAX_SOURCE = 2048;

export const langSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, "must be a language tag such as en, de or pt-BR")
  .transform((tag) => tag.replace(/_/g, "-"));

/**
 * `lang` of a transcription request: a language tag, or `auto` (speech recognition detects the language,
 * and the transcript records the one it heard). Captions are never in "auto": such a request is recognised.
 */
export const requestLangSchema = z
  .string()
  .max(35)
  .regex(
    /^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$/,
    "must be a language tag such as en, de or pt-BR, or auto (detected by speech recognition)",
  )
  .transform((tag) => (tag === "auto" ? tag : tag.replace(/_/g, "-")));

export const formatSchema = z
  .string()
  .refine((token) => parseFormat(token) !== null, `must be one of ${FORMATS.join(", ")} (aliases: txt, markdown)`)
  .transform((token) => parseFormat(token)!);

export const transcriptRequestSchema = z
  .object({
    url: z.string().max(MAX_SOURCE).default("").describe("A video or audio link"),
    upload: z.string().max(MAX_SOURCE).nullable().default(null).describe("object_path of a signed upload"),
    audio: z.string().max(MAX_SOURCE).nullable().default(null).describe("A direct audio URL"),
    lang: requestLangSchema.default("en"),
    format: formatSchema.default("json"),
    vocabulary: vocabularySchema.optional(),
    webhook_url: z
      .string()
      .max(MAX_SOURCE)
      .optional()
      .describe(
        "Optional. When the answer is a job (202), this https URL is also sent transcript.completed or transcript.failed, signed per Standard Webhooks with the account's request signing secret (POST /v1/me/webhooks/request-secret). Not used for a 200 answer, nor when the answer is a job already running for the same source (that job keeps its own).",
      ),
  })
  .refine((body) => [body.url, body.upload, body.audio].filter((v) => v && v.trim() !== "").length === 1, {
    message: "exactly one of url, upload or audio must be given",
  })
  .meta({ id: "TranscriptRequest" });

export type TranscriptRequest = z.output<typeof transcriptRequestSchema>;

export const wordSchema = z
  .object({
    start: z.number().describe("seconds"),
    end: z.number().describe("seconds; no later than the next word's start"),
    text: z.string(),
  })
  .meta({ id: "Word", description: "One word with its own time, as the source timed it." });

export const segmentSchema = z
  .object({
    start: z.number(),
    end: z.number(),
    text: z.string(),
    words: z
      .array(wordSchema)
      .optional()
      .describe(
        "the segment's words with their own times, in order, inside the segment; only where the source times " +
          "each word (automatic captions, speech recognition); absent otherwise",
      ),
    speaker: z
      .string()
      .optional()
      .describe(
        "who speaks, as the source names them (a podcast's own transcript: Podcasting 2.0 JSON, HTML `<cite>`, " +
          "WebVTT `<v>`, SRT `Name:`); absent where it names no one. Never guessed from the audio",
      ),
  })
  .meta({ id: "Segment" });

export const transcriptSchema = z
  .object({
    id: z.string(),
    platform: z.enum(PLATFORMS),
    video_id: z.string(),
    source_url: z.string(),
    title: z.string().nullable(),
    lang: z.string(),
    source: z.enum(["captions", "asr"]),
    caption_kind: z
      .enum(["manual", "auto", "translated"])
      .nullable()
      .describe(
        "manual or auto (the platform's speech recognition) captions; translated: a machine translation, served only when no original track has the language; null for asr",
      ),
    duration_seconds: z.int(),
    channel: z.string().nullable().describe("the channel or account that published it, when the platform says"),
    source_published_at: z
      .string()
      .nullable()
      .describe("when the video or episode itself was published (ISO 8601), when the platform says"),
    chapters: z
      .array(z.object({ start: z.number().describe("seconds"), title: z.string() }).meta({ id: "Chapter" }))
      .describe("chapters from the platform or the description's timestamps; empty when there are none"),
    served_by: z
      .string()
      .nullable()
      .describe(
        "which client or path served the captions (e.g. innertube:VISIONOS, yt-dlp), or the speech recogniser (assemblyai, openai-compatible, local:base-q5_1)",
      ),
    format: z.enum(FORMATS),
    edited: z
      .literal(true)
      .optional()
      .describe(
        "present (true) when this is the caller's own correction (PATCH /v1/transcripts/{id}); absent for the transcript as the source gave it",
      ),
    source_note: z
      .string()
      .optional()
      .describe(
        "present when the source's own file lost something in reading (a podcast publisher's passages whose times could not be read), in a sentence; absent when it was read whole",
      ),
    content: z.string().nullable().describe("the rendered transcript for text, srt, vtt and md; null for json"),
    segments: z.array(segmentSchema).nullable().describe("timed segments in seconds for json; null otherwise"),
  })
  .meta({ id: "Transcript" });

export type TranscriptResponse = z.infer<typeof transcriptSchema>;

export const transcriptionEntrySchema = z
  .object({
    id: z.string(),
    video_id: z.string(),
    lang: z.string().nullable(),
    source: z.string().nullable().describe("the platform: youtube, x, tiktok, …"),
    duration_seconds: z.int().describe("seconds transcribed so far"),
    total_seconds: z.int().describe("length of the media"),
    complete: z.boolean(),
    job_id: z.string().nullable(),
    status: z.string().nullable().describe("done, in_progress or error"),
    created_at: z.string().nullable(),
    source_url: z
      .string()
      .nullable()
      .describe(
        "The link POST /v1/transcript and POST /v1/publish take for this entry: the canonical page, a podcast episode's audio URL, or an upload's upload:<object_path>. Null until the transcript is stored.",
      ),
    title: z.string().nullable().describe("the video's or episode's title, an upload's file name; null when not known"),
    thumbnail_url: z
      .string()
      .nullable()
      .describe("a thumbnail image, for platforms that publish one at a fixed address (YouTube)"),
    transcript_id: z.string().nullable().describe("for GET /v1/transcripts/{id} and its download, once done"),
    published_slug: z
      .string()
      .nullable()
      .describe(
        "the slug of the transcript's public page (/t/{slug}) while the caller has it published (DELETE /v1/publish/{slug} takes it off); null otherwise",
      ),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe("why it failed (status error): the request's or the job's code and detail"),
    added_by: z
      .string()
      .nullable()
      .optional()
      .describe(
        "In a team's history: the member who asked for it (their e-mail, or name); null in a person's own history, and where the team's API key asked",
      ),
  })
  .meta({ id: "TranscriptionEntry" });

export const transcriptionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const transcriptionListSchema = z
  .object({
    transcriptions: z.array(transcriptionEntrySchema),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
  })
  .meta({ id: "TranscriptionListResponse" });

// The contract's platform filter, plus vimeo (the ninth platform the transcript call accepts): every platform.
export const HISTORY_PLATFORMS = PLATFORMS;

export const transcriptionListQuerySchema = z.object({
  limit: queryInt(z.int().min(1).max(100)).default(20),
  offset: queryInt(z.int().min(0)).default(0),
  q: z.string().max(200).nullable().default(null).describe("case-insensitive substring of video_id or title"),
  platform: z.enum(HISTORY_PLATFORMS).nullable().default(null),
  state: z.enum(["done", "in_progress", "error"]).nullable().default(null),
  sort: z.enum(["created_at", "duration_seconds", "total_seconds"]).default("created_at"),
  order: z.enum(["asc", "desc"]).default("desc"),
});

export type TranscriptionListQuery = z.output<typeof transcriptionListQuerySchema>;

export const transcriptFormatQuerySchema = z.object({ format: formatSchema.default("json") });
export const transcriptReadQuerySchema = z.object({
  format: formatSchema.default("json"),
  revision: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "`original`: the transcript as the source gave it; a revision id (GET /v1/transcripts/{id}/revisions): that saved correction; `current` or left out: the caller's current version",
    ),
});
export const transcriptIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const languagesQuerySchema = z.object({ url: z.string().min(1).max(MAX_SOURCE) });

export const languagesResponseSchema = z
  .object({
    platform: z.string(),
    video_id: z.string(),
    title: z.string().nullable(),
    duration_seconds: z.int(),
    languages: z.array(z.object({ code: z.string(), name: z.string(), kind: z.enum(["manual", "auto"]) })),
  })
  .meta({ id: "LanguagesResponse" });

export const jobAcceptedSchema = z
  .object({ job_id: z.string(), status: z.enum(["queued", "running"]) })
  .meta({ id: "Job" });

export const jobResponseSchema = z
  .object({
    job_id: z.string(),
    status: z.enum(["queued", "running", "done", "error"]),
    stage: z.string().nullable(),
    progress: z.number().min(0).max(1),
    created_at: z.string(),
    updated_at: z.string(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    transcript: transcriptSchema
      .nullable()
      .describe("the finished transcript in the requested format, when status is done"),
  })
  .meta({ id: "JobResponse" });

export type JobResponse = z.infer<typeof jobResponseSchema>;

export const jobParamsSchema = z.object({ job_id: z.string().min(1).max(64) });

/** A transcript as a file: the type of `format` (lib/formats). */
/** A transcript downloaded as JSON (lib/formats/json.ts): its segments only. */
export const transcriptFileSchema = z.object({ segments: z.array(segmentSchema) }).meta({ id: "TranscriptFile" });

export const transcriptFileContent: Record<string, z.ZodType | "text" | "binary"> = {
  "application/json": transcriptFileSchema,
  "text/plain": "text",
  "application/x-subrip": "text",
  "text/vtt": "text",
  "text/markdown": "text",
} as const;
