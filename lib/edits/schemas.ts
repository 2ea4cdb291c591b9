import { z } from "zod";
import { MAX_SPEAKER_CHARS } from "@/lib/formats/speakers";

/** The largest PATCH body: a 3-hour transcript with word times fits several times over. */
export const MAX_EDIT_BODY_BYTES = 4 * 1024 * 1024;

const wordSchema = z
  .object({ start: z.number().describe("seconds"), end: z.number().describe("seconds"), text: z.string() })
  .meta({ id: "EditWord" });

export const editSegmentSchema = z
  .object({
    start: z.number().describe("seconds"),
    end: z.number().describe("seconds"),
    text: z.string(),
    words: z
      .array(wordSchema)
      .optional()
      .describe(
        "the segment's word times; leave out to keep the times of unchanged words (new words share the time between their neighbours)",
      ),
    speaker: z
      .string()
      .optional()
      .describe(
        `who speaks (at most ${MAX_SPEAKER_CHARS} characters); leave out to keep the segment's speaker, "" for none`,
      ),
  })
  .meta({ id: "EditSegment" });

export const editRequestSchema = z
  .object({
    segments: z
      .array(editSegmentSchema)
      .optional()
      .describe("the whole corrected transcript, in order; segments left out are removed"),
    format: z.enum(["srt", "vtt"]).optional().describe("with `content`: the corrected transcript as a subtitle file"),
    content: z.string().optional().describe("with `format`: the subtitle file's text"),
    rename_speaker: z
      .object({
        from: z.string().describe("a speaker the transcript names now"),
        to: z.string().describe(`the name to give them everywhere in it (at most ${MAX_SPEAKER_CHARS} characters)`),
      })
      .optional()
      .describe("instead of `segments` or a file: rename one speaker across the whole transcript"),
  })
  .meta({ id: "TranscriptEdit" });

export type EditRequest = z.infer<typeof editRequestSchema>;

export const revisionParamsSchema = z.object({ id: z.string().min(1).max(64), revision_id: z.string().min(1).max(64) });

export const revisionSchema = z
  .object({
    id: z.string().describe("`original` for the transcript as the source gave it"),
    created_at: z.string().nullable().describe("when it was saved; null for the original"),
    size_bytes: z.int(),
    segment_count: z.int(),
    current: z.boolean().describe("the version the caller sees everywhere"),
  })
  .meta({ id: "TranscriptRevision" });

export const revisionListSchema = z
  .object({
    revisions: z.array(revisionSchema).describe("newest first; the original last"),
    kept: z.int().describe("how many saved revisions are kept per transcript (older ones are dropped on save)"),
    storage_used_bytes: z.int().describe("the caller's saved revisions of every transcript, in bytes"),
    storage_limit_bytes: z.int(),
  })
  .meta({ id: "TranscriptRevisionList" });

export const revisionDiffSchema = z
  .object({
    revision_id: z.string(),
    original_words: z.int(),
    revision_words: z.int(),
    unchanged_words: z.int(),
    changes: z
      .array(
        z.object({
          op: z.enum(["replace", "delete", "insert"]),
          original: z.string().describe("the original's words here (empty for insert)"),
          revision: z.string().describe("the revision's words here (empty for delete)"),
          original_start: z.number().nullable().describe("seconds: the original segment's start where it happens"),
          revision_start: z.number().nullable().describe("seconds: the revision's segment start where it happens"),
        }),
      )
      .describe("word-level differences, in order"),
  })
  .meta({ id: "TranscriptRevisionDiff" });
