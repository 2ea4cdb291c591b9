import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

import type { Format } from "@/lib/formats/types";
import { getJob } from "@/lib/transcripts/get-job";
import { OtherLanguagesOnly, requestTranscript } from "@/lib/transcripts/request-transcript";
import { createTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { transcriptRequestSchema, type JobResponse, type TranscriptResponse } from "@/lib/transcripts/schemas";
import { pendingJobText } from "@/lib/mcp/render";
import {
  pageInput,
  pageSchema,
  transcriptInfoSchema,
  transcriptPage,
  type PageRequest,
} from "@/lib/mcp/transcript-page";

import type { RegisterTool, ToolContext } from "./context";
import { formatInput, langInput, urlInput } from "./inputs";
import { errorResult, run } from "./run-tool";

const transcriptOutcomeSchema = z.object({
  status: z
    .enum(["done", "queued", "running", "error"])
    .describe("done: the text content is the transcript; queued/running: poll get_job with job_id"),
  job_id: z.string().nullable().describe("the speech-recognition job, when one was needed"),
  transcript: transcriptInfoSchema
    .nullable()
    .describe("what the transcript is (title, source, language, length); its text is the answer's content"),
  page: pageSchema.nullable().describe("which part of the transcript the content holds, and the whole's length"),
});

const recognizeInput = z
  .boolean()
  .default(false)
  .describe(
    "true: when the video has captions but not in lang, transcribe it by speech recognition (counts against the allowance). Default false: list the languages it has",
  );

export function registerGetTranscript(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "get_transcript",
    {
      title: "Get a transcript",
      description:
        "Transcript of a video or audio link (YouTube, X, TikTok, Facebook, Instagram, RedNote, Vimeo, podcast episode or direct audio URL), " +
        "with [hh:mm:ss] timestamps. Uses the platform's captions when they exist (answers at once); otherwise speech recognition runs as a job: " +
        "this tool waits up to about 20 seconds, then returns the job_id to poll with get_job. A long transcript comes in parts (about 40,000 characters " +
        "each, the whole length stated): continue with from_segment, or jump to a time with from_seconds/to_seconds; words: true also returns the part's " +
        "segments with each word's own time where the source has them. When the video has captions but not " +
        "in lang, the answer lists the languages it has (recognize: true transcribes it anyway). Counts against the caller's monthly allowance " +
        "(once per video and language; repeats and further parts are free).",
      inputSchema: {
        url: urlInput.describe("The video or audio link"),
        lang: langInput,
        format: formatInput,
        recognize: recognizeInput,
        ...pageInput,
      },
      outputSchema: transcriptOutcomeSchema,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ url, lang, format, recognize, ...paging }, extra) =>
      run(ctx, createTranscriptEndpoint, async () => {
        // Fetched with its segments whatever the format: the page renders them (transcript-page.ts).
        const request = transcriptRequestSchema.parse({ url, lang, format: "json" });
        let outcome: Awaited<ReturnType<typeof requestTranscript>>;
        try {
          outcome = await requestTranscript(ctx.userId, request, ctx.deps, { askBeforeRecognition: !recognize });
        } catch (error) {
          if (error instanceof OtherLanguagesOnly) return otherLanguagesResult(error);
          throw error;
        }
        if (outcome.kind === "transcript")
          return transcriptResult("get_transcript", null, outcome.transcript, format, paging);
        const job = await waitForJob(ctx, outcome.job.jobId, extra.signal);
        return jobOutcome(job, format, paging);
      }),
  );
}

function transcriptResult(
  tool: string,
  jobId: string | null,
  transcript: TranscriptResponse,
  format: Format,
  paging: PageRequest,
): CallToolResult {
  const { text, page, info } = transcriptPage(transcript, format, paging, tool);
  return {
    content: [{ type: "text", text }],
    structuredContent: { status: "done", job_id: jobId, transcript: info, page },
  };
}

/** Captions exist, only not in the language asked for: which ones, and how to go on (nothing was charged). */
function otherLanguagesResult(error: OtherLanguagesOnly): CallToolResult {
  const list = error.languages
    .map((l) => `${l.code} (${l.name}${l.kind === "manual" ? "" : `, ${l.kind}`})`)
    .join(", ");
  const minutes = Math.max(1, Math.ceil(error.durationSeconds / 60));
  return errorResult(
    `This video has no captions in '${error.lang}'. It has captions in: ${list}. Call get_transcript with one of those as lang, ` +
      `or with recognize: true to transcribe it in '${error.lang}' by speech recognition (about ${minutes} min of your allowance). Nothing was charged.`,
  );
}

function jobOutcome(job: JobResponse, format: Format, paging: PageRequest): CallToolResult {
  if (job.status === "done" && job.transcript)
    return transcriptResult("get_transcript", job.job_id, job.transcript, format, paging);
  if (job.status === "error")
    return errorResult(`Speech recognition failed: ${job.error?.message ?? "for an unknown reason"}`);
  const status = job.status === "running" ? "running" : "queued";
  return {
    content: [{ type: "text", text: pendingJobText(job) }],
    structuredContent: { status, job_id: job.job_id, transcript: null, page: null },
  };
}

/** Looks at the job every pollMs until it is finished or waitMs has passed (or the client gave up). */
async function waitForJob(ctx: ToolContext, jobId: string, signal: AbortSignal): Promise<JobResponse> {
  const deadline = Date.now() + ctx.waitMs;
  for (;;) {
    const job = await getJob(ctx.userId, jobId, "json");
    const left = deadline - Date.now();
    if (job.status === "done" || job.status === "error" || left <= 0 || signal.aborted) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(ctx.pollMs, left)));
  }
}
