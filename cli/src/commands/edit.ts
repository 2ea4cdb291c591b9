import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";

interface EditOptions {
  from?: string;
  format?: string;
  replace?: string;
  with?: string;
  restore?: boolean;
}

/** The subtitle format of a corrected file: --format, else its extension. */
function fileFormat(path: string, format: string | undefined): "srt" | "vtt" {
  const named = (format ?? extname(path).slice(1)).toLowerCase();
  if (named === "srt" || named === "vtt") return named;
  throw new CliError(`Give --format srt or vtt for ${path} (its extension does not say)`, EXIT.usage);
}

async function edit(ctx: Context, id: string, options: EditOptions): Promise<number> {
  const modes = [options.from !== undefined, options.replace !== undefined, options.restore === true].filter(Boolean);
  if (modes.length !== 1)
    throw new CliError("Give one of --from <file>, --replace <words> --with <words>, --restore", EXIT.usage);
  const edits = ctx.api.verbatim.edits;
  try {
    if (options.restore) {
      const transcript = await edits.restore(id);
      if (ctx.out.json) ctx.out.writeJson(transcript);
      else ctx.out.info(`Restored the original of ${id}; your corrections are gone.`);
      return EXIT.ok;
    }
    if (options.replace !== undefined) {
      if (options.with === undefined) throw new CliError("--replace needs --with <words>", EXIT.usage);
      const { transcript, replaced } = await edits.findReplace(id, options.replace, options.with);
      if (ctx.out.json) ctx.out.writeJson({ replaced, transcript });
      else
        ctx.out.info(
          replaced === 0
            ? `"${options.replace}" is not in ${id}; nothing saved.`
            : `Replaced ${replaced} × "${options.replace}" in ${id}.`,
        );
      return EXIT.ok;
    }
    const path = options.from!;
    const format = fileFormat(path, options.format);
    let content: string;
    try {
      content = await readFile(path, "utf8");
    } catch {
      throw new CliError(`Cannot read ${path}`, EXIT.usage);
    }
    const transcript = await edits.saveFile(id, format, content);
    if (ctx.out.json) ctx.out.writeJson(transcript);
    else
      ctx.out.info(
        `Saved your correction of ${id} (${transcript.segments?.length ?? 0} segments). Undo with: verbatim edit ${id} --restore`,
      );
    return EXIT.ok;
  } catch (error) {
    throw ctx.api.failure(error);
  }
}

export function registerEdit(program: Command): void {
  withJson(program.command("edit"))
    .description("Correct a transcript in your history: only you (and your public page of it) see the correction")
    .argument("<id>", "the transcript id (transcript_id in `verbatim history --json`)")
    .option("--from <file>", "a corrected SRT or VTT file (e.g. one `verbatim get --format srt` wrote)")
    .option("--format <format>", "srt or vtt, when the file's extension does not say")
    .option("--replace <words>", "a word or phrase to replace everywhere (whole words, any case)")
    .option("--with <words>", "what --replace puts in its place")
    .option("--restore", "drop your corrections: back to the original")
    .addHelpText(
      "after",
      examples(
        "verbatim edit cm3x9k2 --from fixed.srt",
        'verbatim edit cm3x9k2 --replace "Jon Smith" --with "John Smyth"',
        "verbatim edit cm3x9k2 --restore",
      ),
    )
    .action(action(edit));
}
