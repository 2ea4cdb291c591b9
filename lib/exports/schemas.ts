import { z } from "zod";
import { env } from "@/lib/env";
import { searchQuerySchema } from "@/lib/search/schemas";
import { HISTORY_PLATFORMS } from "@/lib/transcripts/schemas";

/** The most ids any setting lets one request name (EXPORT_MAX_IDS is at most this). */
const IDS_CEILING = 10_000;

/** An id as the API hands them out; anything else (NUL, which PostgreSQL refuses in text, among them) is a 422. */
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id as the API gives them");

/** Text without control characters (NUL among them). */
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not hold control characters");

const SELECTIONS = ["ids", "history", "search", "follow_id", "library"] as const;

export const exportRequestSchema = z
  .object({
    format: z.enum(["md"]).default("md").describe("md: Markdown notes with YAML front matter (Obsidian, Logseq)"),
    ids: z
      .array(idSchema)
      .min(1)
      .max(IDS_CEILING)
      .superRefine((ids, ctx) => {
        const max = env().EXPORT_MAX_IDS;
        if (ids.length > max) ctx.addIssue({ code: "custom", message: `must name at most ${max} transcripts` });
      })
      .optional()
      .describe("Transcripts (their `id`) from the caller's history; one not in it makes the whole request a 404"),
    history: z
      .object({
        platform: z.enum(HISTORY_PLATFORMS).nullable().default(null),
        q: text(200).nullable().default(null).describe("case-insensitive substring of video_id, title or channel"),
      })
      .strict()
      .optional()
      .describe("The finished entries of the caller's history that GET /v1/me/transcriptions lists with these filters"),
    search: z
      .object({
        q: searchQuerySchema.shape.q,
        platform: z.enum(HISTORY_PLATFORMS).nullable().default(null),
        lang: searchQuerySchema.shape.lang,
        mode: searchQuerySchema.shape.mode,
      })
      .strict()
      .optional()
      .describe("The transcripts a search of the library (GET /v1/me/search) finds moments in, most relevant first"),
    follow_id: idSchema.optional().describe("The transcribed episodes or videos of a followed show (GET /v1/follows)"),
    library: z
      .literal(true)
      .optional()
      .describe("The whole library the credential acts in: the caller's own, or a team's (a team key, the workspace)"),
    zip: z
      .boolean()
      .default(false)
      .describe("A zip even for one transcript (one transcript by `ids` is otherwise answered as the .md file)"),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = SELECTIONS.filter((key) => body[key] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({
        code: "custom",
        message: `must name exactly one selection: ${SELECTIONS.join(", ")}${given.length > 1 ? ` (got ${given.join(", ")})` : ""}`,
        path: given.length > 1 ? [given[1]!] : [],
      });
  })
  .meta({ id: "ExportRequest" });

export type ExportRequest = z.output<typeof exportRequestSchema>;
