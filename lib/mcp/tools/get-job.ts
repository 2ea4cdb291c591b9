import { z } from "zod";

import { getJob } from "@/lib/transcripts/get-job";
import { getJobEndpoint } from "@/lib/transcripts/endpoints";
import { jobResponseSchema } from "@/lib/transcripts/schemas";
import { pendingJobText } from "@/lib/mcp/render";
import { pageInput, pageSchema, transcriptInfoSchema, transcriptPage } from "@/lib/mcp/transcript-page";

import type { RegisterTool, ToolContext } from "./context";
import { formatInput } from "./inputs";
import { run } from "./run-tool";

const jobOutcomeSchema = jobResponseSchema.omit({ transcript: true }).extend({
  transcript: transcriptInfoSchema
    .nullable()
    .describe("when done: what the transcript is; its text is the answer's content"),
  page: pageSchema.nullable(),
});

export function registerGetJob(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "get_job",
    {
      title: "Get a transcription job",
      description:
        "Status of a speech-recognition job started by get_transcript (queued, running, done or error, with progress); " +
        "when done, the transcript with [hh:mm:ss] timestamps, in parts like get_transcript's.",
      inputSchema: {
        job_id: z.string().min(1).max(64).describe("The job_id get_transcript returned"),
        format: formatInput,
        ...pageInput,
      },
      outputSchema: jobOutcomeSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ job_id, format, ...paging }) =>
      run(ctx, getJobEndpoint, async () => {
        const job = await getJob(ctx.userId, job_id, "json");
        const { transcript, ...status } = job;
        if (transcript) {
          const { text, page, info } = transcriptPage(transcript, format, paging, "get_job");
          return { content: [{ type: "text", text }], structuredContent: { ...status, transcript: info, page } };
        }
        const text =
          job.status === "error"
            ? `Speech recognition failed: ${job.error?.message ?? "for an unknown reason"}`
            : pendingJobText(job);
        return { content: [{ type: "text", text }], structuredContent: { ...status, transcript: null, page: null } };
      }),
  );
}
