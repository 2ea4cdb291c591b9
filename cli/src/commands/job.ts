import { Option, type Command } from "commander";
import { FORMAT_TOKEN_NAMES, parseFormat } from "@/lib/formats/types";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT, exitCodeFor } from "../errors";
import { assertJobId, readJob, waitForJob } from "../jobs";
import { writeTranscript } from "../transcript-file";

/** A job by id: waits for it (as `get` does) unless --no-wait, then prints its transcript or its state. */
async function job(
  ctx: Context,
  jobId: string,
  options: { format: string; output?: string; wait: boolean },
): Promise<number> {
  assertJobId(jobId);
  const format = parseFormat(options.format);
  if (!format)
    throw new CliError(`Unknown format: ${options.format}. One of: ${FORMAT_TOKEN_NAMES.join(", ")}`, EXIT.usage);
  const found = options.wait ? await waitForJob(ctx, jobId, format, true) : await readJob(ctx, jobId, format);
  if (ctx.out.json) {
    ctx.out.writeJson(found);
    if (found.transcript && options.output && options.output !== "-")
      await writeTranscript(ctx, found.transcript, options.output, false);
    return found.status === "error" ? exitCodeFor(null, found.error?.code ?? null) : EXIT.ok;
  }
  if (found.transcript) {
    await writeTranscript(ctx, found.transcript, options.output, false);
    return EXIT.ok;
  }
  const state =
    found.status === "error"
      ? `error: ${found.error?.message ?? "failed"}`
      : `${found.status}${found.stage ? ` (${found.stage}, ${Math.round(found.progress * 100)}%)` : ""}`;
  ctx.out.write(`Job ${found.job_id}: ${state}\n`);
  return found.status === "error" ? exitCodeFor(null, found.error?.code ?? null) : EXIT.ok;
}

export function registerJob(program: Command): void {
  withJson(program.command("job"))
    .description("Wait for a transcription job and print its transcript (resume after Ctrl-C in `get`)")
    .argument("<id>", "the job id `get` printed")
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMAT_TOKEN_NAMES).default("text"))
    .option("-o, --output <file>", "write the transcript to this file instead of stdout")
    .option("--no-wait", "show the job's state now instead of waiting")
    .addHelpText("after", examples("verbatim job 9f1c2d3e-…", "verbatim job 9f1c2d3e-… --no-wait --json"))
    .action(action(job));
}
