import { z } from "zod";

import { editTranscriptEndpoint, restoreTranscriptEndpoint } from "@/lib/edits/endpoints";
import { replaceInSegments } from "@/lib/edits/find-replace";
import { restoreOriginal, saveEdit } from "@/lib/edits/revisions";
import { RequestValidationError } from "@/lib/http/validation";
import { readTranscript, transcriptSegments } from "@/lib/transcripts/read";

import type { RegisterTool, ToolContext } from "./context";
import { run } from "./run-tool";

export function registerEditTranscript(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "edit_transcript",
    {
      title: "Correct a transcript",
      description:
        "Corrects a transcript in the caller's history (its id is transcript.id in get_transcript's answer): replace words or names " +
        "everywhere (replacements, whole words, any case), or send the whole corrected transcript as an SRT or VTT file (content). " +
        "Unchanged words keep their times. The correction is the caller's own: they see it everywhere (get_transcript, downloads, " +
        "search, their public page); nobody else does. restore: true drops every correction. Free: no allowance is used.",
      inputSchema: {
        transcript_id: z.string().min(1).max(64).describe("transcript.id from get_transcript"),
        replacements: z
          .array(z.object({ find: z.string().min(1).max(200), replace: z.string().max(200) }))
          .max(50)
          .optional()
          .describe("each find replaced by its replace, in order, across the whole transcript"),
        format: z.enum(["srt", "vtt"]).optional().describe("with content: the corrected transcript's file format"),
        content: z.string().max(4_000_000).optional().describe("a corrected SRT or VTT file: the whole transcript"),
        restore: z.boolean().default(false).describe("true: drop the caller's corrections, back to the original"),
      },
      outputSchema: z.object({
        edited: z.boolean().describe("whether the caller now sees a correction"),
        replaced: z.int().describe("how many replacements were made (0 for a file or a restore)"),
        total_segments: z.int(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ transcript_id, replacements, format, content, restore }) =>
      run(ctx, restore ? restoreTranscriptEndpoint : editTranscriptEndpoint, async () => {
        if (restore) {
          const original = await restoreOriginal(ctx.userId, transcript_id, "json");
          const total = original.segments?.length ?? 0;
          return {
            content: [{ type: "text", text: `Restored the original transcript (${total} segments).` }],
            structuredContent: { edited: false, replaced: 0, total_segments: total },
          };
        }
        if (content !== undefined) {
          const saved = await saveEdit(ctx.userId, transcript_id, { format: format ?? "srt", content }, "json");
          const total = saved.segmentCount;
          return {
            content: [{ type: "text", text: `Saved the corrected transcript (${total} segments).` }],
            structuredContent: { edited: true, replaced: 0, total_segments: total },
          };
        }
        if (!replacements?.length)
          throw new RequestValidationError([
            {
              type: "value_error",
              loc: ["arguments", "replacements"],
              msg: "Value error, give replacements, content (a corrected SRT or VTT file), or restore: true",
              input: null,
            },
          ]);
        const current = await readTranscript(ctx.userId, transcript_id);
        let segments = transcriptSegments(current);
        let replaced = 0;
        for (const { find, replace } of replacements) {
          const out = replaceInSegments(segments, find, replace);
          segments = out.segments;
          replaced += out.replaced;
        }
        if (replaced === 0)
          return {
            content: [{ type: "text", text: "None of the words to find is in the transcript; nothing was saved." }],
            structuredContent: { edited: current.edited === true, replaced: 0, total_segments: segments.length },
          };
        await saveEdit(ctx.userId, transcript_id, { segments }, "json");
        return {
          content: [{ type: "text", text: `Saved: ${replaced} replacement${replaced === 1 ? "" : "s"}.` }],
          structuredContent: { edited: true, replaced, total_segments: segments.length },
        };
      }),
  );
}
