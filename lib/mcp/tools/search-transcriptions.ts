import { z } from "zod";

import { spokenDuration } from "@/lib/formats/spoken-duration";
import { listTranscriptionsEndpoint } from "@/lib/transcripts/endpoints";
import { listTranscriptions } from "@/lib/transcripts/list-transcriptions";
import { HISTORY_PLATFORMS, transcriptionListQuerySchema, transcriptionListSchema } from "@/lib/transcripts/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf } from "./inputs";
import { run } from "./run-tool";

export function registerSearchTranscriptions(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "search_transcriptions",
    {
      title: "Search my transcriptions",
      description:
        "The caller's transcription history, newest first: filter by video id substring, platform or state; page with limit and offset. " +
        "Use get_transcript with the video's link to read one again (free for videos already in the history). " +
        "To find what was said inside the transcripts, use search_transcripts.",
      inputSchema: {
        q: z.string().max(200).optional().describe("Case-insensitive substring of the video id"),
        platform: z.enum(HISTORY_PLATFORMS).optional(),
        state: z.enum(["done", "in_progress", "error"]).optional(),
        limit: z.int().min(1).max(100).default(20),
        offset: z.int().min(0).default(0),
      },
      outputSchema: outputOf(transcriptionListSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run(ctx, listTranscriptionsEndpoint, async () => {
        const query = transcriptionListQuerySchema.parse({
          ...args,
          limit: String(args.limit),
          offset: String(args.offset),
        });
        const list = await listTranscriptions(ctx.userId, query);
        const lines = list.transcriptions.map(
          (t) =>
            `- ${t.title ? `"${t.title}" ` : ""}${t.source ?? "?"} ${t.video_id} [${t.lang ?? "?"}] ${t.status ?? ""}, ${spokenDuration(t.total_seconds)}, ${t.created_at ?? ""}` +
            `${t.source_url ? `, ${t.source_url}` : ""}${t.job_id && t.status === "in_progress" ? `, job ${t.job_id}` : ""}${t.error ? `: ${t.error.message}` : ""}`,
        );
        const text = `${list.total} transcription(s); showing ${list.transcriptions.length} from ${list.offset}.\n${lines.join("\n")}`;
        return { content: [{ type: "text", text }], structuredContent: list };
      }),
  );
}
