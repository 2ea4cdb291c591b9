import { describeUsage } from "@/lib/usage/describe-usage";
import { spokenDuration } from "@/lib/formats/spoken-duration";
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FORMATS, type Format } from "@/lib/formats/types";
import { ApiError } from "@/lib/http/errors";
import { limitRequest } from "@/lib/http/rate-limits";
import { RequestValidationError, refuseUnstorable } from "@/lib/http/validation";
import type { Endpoint } from "@/lib/http/endpoint";
import { publishEndpoint, unpublishEndpoint } from "@/lib/publishing/endpoints";
import { publishTranscript, unpublishTranscript } from "@/lib/publishing/publish";
import { publishResponseSchema } from "@/lib/publishing/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import {
  createTranscriptEndpoint,
  getJobEndpoint,
  listLanguagesEndpoint,
  listTranscriptionsEndpoint,
} from "@/lib/transcripts/endpoints";
import { getJob } from "@/lib/transcripts/get-job";
import { listLanguages } from "@/lib/transcripts/list-languages";
import { listTranscriptions } from "@/lib/transcripts/list-transcriptions";
import { OtherLanguagesOnly, requestTranscript } from "@/lib/transcripts/request-transcript";
import {
  HISTORY_PLATFORMS,
  jobResponseSchema,
  langSchema,
  languagesResponseSchema,
  transcriptionListQuerySchema,
  transcriptionListSchema,
  transcriptRequestSchema,
  type JobResponse,
  type TranscriptResponse,
} from "@/lib/transcripts/schemas";
import { resolvePodcastEndpoint } from "@/lib/podcasts/endpoints";
import { resolvePodcast, type ResolveDeps as PodcastDeps } from "@/lib/podcasts/resolve-podcast";
import { resolveResponseSchema } from "@/lib/podcasts/schemas";
import { getSubscriptionEndpoint } from "@/lib/usage/endpoints";
import { getSubscription } from "@/lib/usage/get-subscription";
import { subscriptionResponseSchema } from "@/lib/usage/schemas";
import { pendingJobText, searchText } from "@/lib/mcp/render";
import {
  pageInput,
  pageSchema,
  transcriptInfoSchema,
  transcriptPage,
  type PageRequest,
} from "@/lib/mcp/transcript-page";
import { searchLibraryEndpoint } from "@/lib/search/endpoints";
import { searchQuerySchema, searchResponseSchema, SEARCH_QUERY_MAX } from "@/lib/search/schemas";
import { searchLibrary } from "@/lib/search/search-library";
import { log } from "@/lib/observability/logger";
import { editTranscriptEndpoint, restoreTranscriptEndpoint } from "@/lib/edits/endpoints";
import { replaceInSegments } from "@/lib/edits/find-replace";
import { restoreOriginal, rowAt, saveEdit } from "@/lib/edits/revisions";
import { transcriptSegments } from "@/lib/transcripts/serializers";

// The MCP tools: each one calls the same lib/ function as its REST operation, under the same rate-limit
// row, and answers with text a model reads well plus the REST answer as structuredContent; a transcript is
// in the text only, once, in pages (transcript-page.ts), and structuredContent says what it is and which part. An ApiError
// (or a validation failure) becomes a tool result with isError and the error's sentence, so the model
// can act on it; anything unexpected is logged and answered without details.
// One file on purpose, like a route table: every tool's name, description, schemas and rate-limit row in one
// list, so that a connector's whole surface is read in one place; the work is in lib/ behind each one.

export interface ToolContext {
  userId: string;
  /** The HTTP request the call came in (per-address rate limits use its client address). */
  request: Request;
  deps: TranscriptDeps;
  podcastDeps: PodcastDeps;
  /** How long get_transcript waits for a speech-recognition job before answering with the job id. */
  waitMs: number;
  /** How often it looks at the job meanwhile. */
  pollMs: number;
}

const formatInput = z
  .enum(FORMATS)
  .default("json")
  .describe("json or text: one [hh:mm:ss] line per segment (the default); srt, vtt or md: that file format");
const langInput = langSchema.default("en").describe("Language tag of the transcript, e.g. en, de, pt-BR (default en)");
const urlInput = z.string().min(1).max(2048);

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

const jobOutcomeSchema = jobResponseSchema.omit({ transcript: true }).extend({
  transcript: transcriptInfoSchema
    .nullable()
    .describe("when done: what the transcript is; its text is the answer's content"),
  page: pageSchema.nullable(),
});

const recognizeInput = z
  .boolean()
  .default(false)
  .describe(
    "true: when the video has captions but not in lang, transcribe it by speech recognition (counts against the allowance). Default false: list the languages it has",
  );

/** REST operations named in the API's sentences, and the tool that does the same here. */
const TOOL_FOR_OPERATION: [RegExp, string][] = [
  [/POST \/v1\/transcript\b/g, "get_transcript"],
  [/GET \/v1\/jobs\/\{?[\w-]*\}?/g, "get_job"],
  [/GET \/v1\/languages\b/g, "list_languages"],
  [/POST \/v1\/publish\b/g, "publish_transcript"],
  [/DELETE \/v1\/publish\b[^\s,.)]*/g, "unpublish_transcript"],
  [/POST \/v1\/podcast\/resolve\b/g, "resolve_podcast"],
  [/GET \/v1\/me\/transcriptions\b/g, "search_transcriptions"],
  [/GET \/v1\/me\/search\b/g, "search_transcripts"],
  [/GET \/v1\/me\/subscription\b/g, "get_usage"],
  [/PATCH \/v1\/transcripts\/\{?[\w-]*\}?/g, "edit_transcript"],
  [/DELETE \/v1\/transcripts\/\{?[\w-]*\}?\/edits/g, "edit_transcript (restore: true)"],
];

/** An API sentence as an assistant acts on it: tools where it names REST operations. */
export function namingTools(sentence: string): string {
  return TOOL_FOR_OPERATION.reduce((text, [operation, tool]) => text.replace(operation, tool), sentence);
}

/**
 * An output schema for MCP: the REST answer's object without its OpenAPI component id, so the JSON Schema the
 * SDK lists is an object schema itself rather than a reference (nested components stay in $defs).
 */
function outputOf<S extends z.ZodObject>(schema: S): z.ZodObject<S["shape"]> {
  return z.object(schema.shape);
}

const unpublishedSchema = z.object({ slug: z.string(), published: z.literal(false) });

/** The tools registerTools registers (a call naming any other is a JSON-RPC error: lib/mcp/unknown-tool.ts). */
export const TOOL_NAMES: ReadonlySet<string> = new Set([
  "get_transcript",
  "get_job",
  "list_languages",
  "search_transcriptions",
  "search_transcripts",
  "publish_transcript",
  "unpublish_transcript",
  "resolve_podcast",
  "get_usage",
  "edit_transcript",
]);

export function registerTools(server: McpServer, ctx: ToolContext): void {
  // Every tool's arguments are held to the storable-text rule (lib/db/storable-text.ts) before it runs, as
  // REST bodies and queries are in parseInput: a NUL or an unpaired surrogate is an "Invalid input" result.
  const tool = ((name: string, config: unknown, callback: (args: unknown, extra: unknown) => unknown) =>
    server.registerTool(
      name,
      config as never,
      ((args: unknown, extra: unknown) => {
        try {
          refuseUnstorable(args, "arguments");
        } catch (error) {
          return toolError(error);
        }
        return callback(args, extra);
      }) as never,
    )) as McpServer["registerTool"];

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

  tool(
    "list_languages",
    {
      title: "List caption languages",
      description:
        "Which caption languages a video has (manual and auto-generated), with its title and duration. Free: nothing is transcribed or charged.",
      inputSchema: { url: urlInput.describe("The video link") },
      outputSchema: outputOf(languagesResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) =>
      run(ctx, listLanguagesEndpoint, async () => {
        const info = await listLanguages(url, ctx.deps);
        const lines = info.languages.map((l) => `- ${l.code}: ${l.name} (${l.kind})`);
        const text = `${info.title ?? info.video_id} (${info.platform}, ${spokenDuration(info.duration_seconds)})\n${lines.length > 0 ? lines.join("\n") : "No captions: get_transcript will use speech recognition."}`;
        return { content: [{ type: "text", text }], structuredContent: info };
      }),
  );

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

  tool(
    "search_transcripts",
    {
      title: "Search inside my transcripts",
      description:
        "Finds what was said in the caller's transcripts: the moments that match, most relevant first (at most 3 per transcript), " +
        "each with its [hh:mm:ss] time, a short snippet (matched words in **bold**) and a link that opens the video at that moment. " +
        'Query syntax: words (any form: "colonize" finds "colonized"), "quoted phrases", -excluded, OR. Use it to answer questions ' +
        "about what a video or podcast said; read more around a moment with get_transcript.",
      inputSchema: {
        q: z.string().min(1).max(SEARCH_QUERY_MAX).describe('What was said: words, "a phrase", -exclude, OR'),
        platform: z.enum(HISTORY_PLATFORMS).optional(),
        lang: langSchema.optional().describe("Only transcripts in this language"),
        limit: z.int().min(1).max(20).default(10).describe("Moments per answer (default 10, at most 20)"),
        cursor: z.string().max(100).optional().describe("next_cursor of the previous answer, for more moments"),
      },
      outputSchema: outputOf(searchResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run(ctx, searchLibraryEndpoint, async () => {
        const query = searchQuerySchema.parse({ ...args, limit: String(args.limit) });
        const found = await searchLibrary(ctx.userId, query);
        return { content: [{ type: "text", text: searchText(query.q, found) }], structuredContent: found };
      }),
  );

  tool(
    "publish_transcript",
    {
      title: "Publish a transcript",
      description:
        "Makes one of the caller's transcripts public at a stable link (/t/{slug}); publishing again after unpublishing brings back the same link. " +
        "The transcript must be in the caller's history (get it with get_transcript first).",
      inputSchema: {
        url: urlInput.describe(
          "The link the transcript was made from, or the source_url search_transcriptions gives for it (uploads and podcast episodes too)",
        ),
        lang: langInput,
      },
      outputSchema: outputOf(publishResponseSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ url, lang }) =>
      run(ctx, publishEndpoint, async () => {
        const published = await publishTranscript(ctx.userId, { url, lang }, ctx.deps);
        return {
          content: [{ type: "text", text: `Published at ${published.url} (slug ${published.slug}).` }],
          structuredContent: published,
        };
      }),
  );

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
          const total = saved.segments?.length ?? 0;
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
        const current = await rowAt(ctx.userId, transcript_id, undefined);
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

  tool(
    "unpublish_transcript",
    {
      title: "Unpublish a transcript",
      description: "Takes a published transcript off its public link (the slug is kept; publishing again restores it).",
      inputSchema: { slug: z.string().min(1).max(200).describe("The slug publish_transcript returned") },
      outputSchema: unpublishedSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ slug }) =>
      run(ctx, unpublishEndpoint, async () => {
        await unpublishTranscript(ctx.userId, slug);
        return {
          content: [{ type: "text", text: `Unpublished ${slug}.` }],
          structuredContent: { slug, published: false },
        };
      }),
  );

  tool(
    "resolve_podcast",
    {
      title: "Resolve a podcast",
      description:
        "What a podcast link is: an RSS/Atom feed or an Apple Podcasts show link → the show and its episodes (newest first, with audio URLs); " +
        "an Apple Podcasts episode link → that episode; a direct audio link → itself. Pass an episode's audio_url to get_transcript as url.",
      inputSchema: {
        url: urlInput.describe("A feed URL, an Apple Podcasts show or episode link, or an audio file's URL"),
      },
      outputSchema: outputOf(resolveResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) =>
      run(ctx, resolvePodcastEndpoint, async () => {
        const resolved = await resolvePodcast(ctx.userId, { url }, ctx.podcastDeps);
        const episodes = (resolved.episodes ?? []).map(
          (e) =>
            `- ${e.title}${e.published ? ` (${e.published.slice(0, 10)})` : ""}${e.duration ? `, ${e.duration}` : ""}: ${e.audio_url}`,
        );
        const text = [
          `${resolved.kind}${resolved.show ? `: ${resolved.show.title}` : ""}`,
          ...(resolved.audio_url ? [`Audio: ${resolved.audio_url}`] : []),
          ...(episodes.length > 0 ? [`${episodes.length} episode(s):`, ...episodes] : []),
        ].join("\n");
        return { content: [{ type: "text", text }], structuredContent: resolved };
      }),
  );

  tool(
    "get_usage",
    {
      title: "Show my usage",
      description: "The caller's plan, allowance and use in the current period (seconds), and when the period ends.",
      inputSchema: {},
      outputSchema: outputOf(subscriptionResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      run(ctx, getSubscriptionEndpoint, async () => {
        const usage = await getSubscription(ctx.userId);
        const text = describeUsage(usage);
        return { content: [{ type: "text", text }], structuredContent: usage };
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

/** Applies the REST operation's rate-limit row, runs the tool, and turns our errors into tool errors. */
async function run(ctx: ToolContext, endpoint: Endpoint, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    if (endpoint.rateLimit) await limitRequest(endpoint.rateLimit, ctx.request, ctx.userId);
    return await body();
  } catch (error) {
    return toolError(error);
  }
}

export function toolError(error: unknown): CallToolResult {
  if (error instanceof ApiError) return errorResult(`${namingTools(error.detail)} (${error.code})`);
  if (error instanceof RequestValidationError) {
    return errorResult(
      `Invalid input: ${error.items.map((item) => `${item.loc.slice(1).join(".") || "value"}: ${item.msg}`).join("; ")}`,
    );
  }
  if (error instanceof z.ZodError) {
    return errorResult(
      `Invalid input: ${error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; ")}`,
    );
  }
  log.error({ err: error }, "MCP tool failed");
  return errorResult("Something went wrong on our side. Try again; if it keeps happening, contact support.");
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
