import { mkdir, stat } from "node:fs/promises";
import { Option, type Command } from "commander";
import pLimit from "p-limit";
import { FORMAT_TOKEN_NAMES, parseFormat } from "@/lib/formats/types";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { waitForJob, type TranscriptFormat } from "../jobs";
import { rendered, writeTranscript, type Transcript } from "../transcript-file";
import { uploadFile } from "../upload";

interface GetOptions {
  lang: string;
  format: string;
  output?: string;
  concurrency: string;
  json?: boolean;
}

type GetResult =
  | { input: string; transcript: Transcript }
  | { input: string; error: { message: string; code: string | null; exit_code: number } };

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
    expanded.push(
      ...text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith("#")),
    );
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
async function transcribe(
  ctx: Context,
  input: string,
  options: { lang: string; format: TranscriptFormat },
): Promise<Transcript> {
  const named = await sourceOf(input);
  const target =
    "file" in named
      ? { source: "upload" as const, url: (await uploadFile(ctx, named.file)).object_path }
      : { source: "url" as const, url: named.url };
  const answer = await ctx.api.verbatim
    .transcribe(target.url, { source: target.source, lang: options.lang, format: options.format, wait: false })
    .catch((error: unknown) => {
      throw ctx.api.failure(error);
    });
  return answer.kind === "job"
    ? (await waitForJob(ctx, answer.job.job_id, options.format)).transcript
    : answer.transcript;
}

/**
 * With --json the transcript carries its `segments` whatever the format: the API sends them for json only,
 * so for the others they are read once more from the history entry in json.
 */
async function withSegments(ctx: Context, transcript: Transcript): Promise<Transcript> {
  if (transcript.segments !== null) return transcript;
  const params = { path: { id: transcript.id }, query: { format: "json" as const } };
  const { segments } = await ctx.api.ok(ctx.api.client.GET("/v1/transcripts/{id}", { params }));
  return { ...transcript, segments };
}

async function get(ctx: Context, inputs: string[], options: GetOptions): Promise<number> {
  const all = await expandInputs(inputs);
  if (all.length === 0)
    throw new CliError(
      "No link or file given. Example: verbatim get https://youtu.be/… (or - to read links from stdin)",
      EXIT.usage,
    );
  const concurrency = Number(options.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new CliError("--concurrency must be a whole number from 1 to 16", EXIT.usage);
  const format = parseFormat(options.format);
  if (!format)
    throw new CliError(`Unknown format: ${options.format}. One of: ${FORMAT_TOKEN_NAMES.join(", ")}`, EXIT.usage);
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
          let transcript = await transcribe(ctx, input, { lang: options.lang, format });
          if (ctx.out.json) transcript = await withSegments(ctx, transcript);
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
  if (ctx.out.json) ctx.out.writeJson(several ? results : (results[0] as { transcript: Transcript }).transcript);
  const failed = results.find((result) => "error" in result);
  return failed && "error" in failed ? failed.error.exit_code : EXIT.ok;
}

export function registerGet(program: Command): void {
  withJson(program.command("get"))
    .description("Transcribe links or local audio/video files (uploaded), waiting for speech recognition when needed")
    .argument("<url|file...>", "links or files; - reads them from stdin, one a line")
    .option("-l, --lang <lang>", "language of the transcript", "en")
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMAT_TOKEN_NAMES).default("text"))
    .option("-o, --output <file>", "write to this file (a folder when several inputs are given) instead of stdout")
    .option("-c, --concurrency <n>", "how many inputs are transcribed at once", "3")
    .addHelpText(
      "after",
      examples(
        "verbatim get https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "verbatim get https://youtu.be/dQw4w9WgXcQ --lang de --format srt -o talk.de.srt",
        "verbatim get interview.m4a --format vtt > interview.vtt",
        "cat links.txt | verbatim get - -o transcripts/",
        "verbatim get https://youtu.be/dQw4w9WgXcQ --json | jq '.segments[0]'",
        "verbatim get https://youtu.be/dQw4w9WgXcQ --json | jq -c '.segments[].words[]?'",
      ) +
        "\nWith --json: the transcript object, its timed segments included whatever the format (each with its words' own times, `words`, where the source times them: automatic captions, speech recognition); with several inputs an array of {input, transcript} or {input, error}.\n",
    )
    .action(action(get));
}
