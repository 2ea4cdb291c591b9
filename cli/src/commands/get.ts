import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { waitForJob } from "../jobs";
import { uploadFile } from "../upload";

export interface GetOptions {
  lang: string;
  format: string;
  output?: string;
  concurrency: string;
  json?: boolean;
}

export type GetResult = { input: string; transcript: TranscriptResponse } | { input: string; error: { message: string; code: string | null; exit_code: number } };

const EXTENSIONS: Record<string, string> = { json: "json", text: "txt", txt: "txt", srt: "srt", vtt: "vtt", md: "md", markdown: "md" };

/** `-` reads links (or file paths) from stdin, one a line; blank lines and # comments are skipped. */
async function expandInputs(inputs: string[]): Promise<string[]> {
  const expanded: string[] = [];
  for (const input of inputs) {
    if (input !== "-") {
      expanded.push(input);
      continue;
    }
    let text = "";
    for await (const chunk of process.stdin) text += chunk;
    expanded.push(...text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#")));
  }
  return expanded;
}

/**
 * What an input names: a link (with its scheme, or a bare host such as youtu.be/… given https://), or a local
 * file to upload. Anything else is a path that does not exist.
 */
async function sourceOf(input: string): Promise<{ url: string } | { file: string }> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return { url: input };
  try {
    if ((await stat(input)).isFile()) return { file: input };
  } catch {
    // not a file: perhaps a link without its scheme
  }
  if (/^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+\//i.test(input)) return { url: `https://${input}` };
  throw new CliError(`No such file: ${input} (links start with https://)`, EXIT.usage);
}

/** One input to a finished transcript: the direct answer, or the job it started, waited for. */
export async function transcribe(ctx: Context, input: string, options: { lang: string; format: string }): Promise<TranscriptResponse> {
  const named = await sourceOf(input);
  const source = "file" in named ? { upload: (await uploadFile(ctx, named.file)).object_path } : named;
  const answer = await ctx.api.request<TranscriptResponse | { job_id: string }>("POST", "/v1/transcript", { body: { ...source, lang: options.lang, format: options.format } });
  if (answer.status === 202 && "job_id" in answer.body) {
    return (await waitForJob(ctx, answer.body.job_id, options.format)).transcript;
  }
  return answer.body as TranscriptResponse;
}

/** The transcript as its file: `content` for the text formats, the JSON object for json. */
export function rendered(transcript: TranscriptResponse): string {
  if (transcript.format === "json" || transcript.content === null) return `${JSON.stringify(transcript, null, 2)}\n`;
  return transcript.content.endsWith("\n") ? transcript.content : `${transcript.content}\n`;
}

function fileName(transcript: TranscriptResponse): string {
  const base = `${transcript.video_id}.${transcript.lang}`.replace(/[^\w.-]+/g, "_").replace(/^[._]+/, "");
  return `${base || "transcript"}.${EXTENSIONS[transcript.format] ?? transcript.format}`;
}

export async function writeTranscript(ctx: Context, transcript: TranscriptResponse, output: string | undefined, intoDirectory: boolean): Promise<void> {
  if (!output || output === "-") {
    if (!ctx.out.json) ctx.out.write(rendered(transcript));
    return;
  }
  const file = intoDirectory ? path.join(output, fileName(transcript)) : output;
  await writeFile(file, rendered(transcript));
  ctx.out.info(`Wrote ${file} (${transcript.title ?? transcript.video_id}, ${transcript.source === "asr" ? "speech recognition" : "captions"})`);
}

export async function get(ctx: Context, inputs: string[], options: GetOptions): Promise<number> {
  const all = await expandInputs(inputs);
  if (all.length === 0) throw new CliError("No link or file given. Example: verbatim get https://youtu.be/… (or - to read links from stdin)", EXIT.usage);
  const concurrency = Number(options.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) throw new CliError("--concurrency must be a whole number from 1 to 16", EXIT.usage);
  const several = all.length > 1 || inputs.includes("-");
  if (several && options.output && options.output !== "-") {
    // Several transcripts go into a folder, each named <video id>.<lang>.<ext>.
    await mkdir(options.output, { recursive: true });
  }
  const limit = pLimit(concurrency);
  const results: GetResult[] = await Promise.all(
    all.map((input) =>
      limit(async (): Promise<GetResult> => {
        try {
          const transcript = await transcribe(ctx, input, options);
          if (several && !ctx.out.json && (!options.output || options.output === "-")) return { input, transcript }; // printed in order below
          await writeTranscript(ctx, transcript, options.output, several);
          return { input, transcript };
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          if (several) ctx.out.info(`${input}: ${error.message}`);
          if (!several) throw error;
          return { input, error: { message: error.message, code: error.code, exit_code: error.exitCode } };
        }
      }),
    ),
  );
  if (several && !ctx.out.json && (!options.output || options.output === "-")) {
    for (const result of results) if ("transcript" in result) ctx.out.write(rendered(result.transcript));
  }
  if (ctx.out.json) ctx.out.writeJson(several ? results : (results[0] as { transcript: TranscriptResponse }).transcript);
  const failed = results.find((result) => "error" in result);
  return failed && "error" in failed ? failed.error.exit_code : EXIT.ok;
}
