import { Option, type Command } from "commander";
import { PLATFORMS } from "@/lib/sources/platforms";
import type { Schemas } from "../api";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { writeNotes } from "../vault";

interface ExportOptions {
  format: "md";
  out: string;
  id?: string[];
  platform?: (typeof PLATFORMS)[number];
  q?: string;
  search?: string;
  follow?: string;
}

/** The request's one selection, from the options: the whole library unless one is named. */
function selection(options: ExportOptions) {
  const named = [options.id, options.platform ?? options.q, options.search, options.follow].filter(
    (value) => value !== undefined,
  );
  if (named.length > 1)
    throw new CliError(
      "Choose one of --id, --platform/-q, --search and --follow (or none, for everything).",
      EXIT.usage,
    );
  if (options.id) return { ids: options.id };
  if (options.platform || options.q) return { history: { platform: options.platform ?? null, q: options.q ?? null } };
  if (options.search) return { search: { q: options.search, platform: null, mode: "hybrid" as const } };
  if (options.follow) return { follow_id: options.follow };
  return { library: true as const };
}

/** `verbatim export --out <folder>`: transcripts as Markdown notes in a folder; a re-run updates them in place. */
async function exportNotes(ctx: Context, options: ExportOptions): Promise<number> {
  const body: Schemas["ExportRequest"] = { format: options.format, zip: true, ...selection(options) };
  const { headers, body: zip } = await ctx.api.postStream("/v1/exports", body);
  const count = Number(headers.get("x-export-count") ?? 0);
  ctx.out.info(`Exporting ${count} ${count === 1 ? "note" : "notes"} to ${options.out}…`);
  const outcome = await writeNotes(zip, options.out);
  if (ctx.out.json) {
    ctx.out.writeJson({ out: options.out, count, ...outcome });
    return EXIT.ok;
  }
  const parts = [
    `${outcome.added.length} new`,
    `${outcome.updated.length} updated`,
    ...(outcome.renamed.length ? [`${outcome.renamed.length} renamed`] : []),
    `${outcome.unchanged.length} unchanged`,
  ];
  ctx.out.info(`Done: ${parts.join(", ")}.`);
  return EXIT.ok;
}

export function registerExport(program: Command): void {
  withJson(program.command("export"))
    .description("Your transcripts as Markdown notes (Obsidian, Logseq) in a folder; a re-run updates them in place")
    .addOption(new Option("--format <format>", "the notes' format").choices(["md"]).default("md"))
    .requiredOption("-o, --out <folder>", "the folder to write the notes into (created when missing)")
    .option("--id <id...>", "only these transcripts (ids from `verbatim history --json`)")
    .addOption(new Option("--platform <platform>", "only this platform's (as `verbatim history`)").choices(PLATFORMS))
    .option("-q, --q <text>", "only titles, channels or video ids containing this text (as `verbatim history`)")
    .option("--search <query>", "only the transcripts a search finds moments in (as `verbatim search`)")
    .option("--follow <id>", "only a followed show's transcripts (ids from `verbatim follow ls`)")
    .addHelpText(
      "after",
      examples(
        "verbatim export --format md --out ~/Obsidian/Transcripts",
        "verbatim export --out ./vault --platform podcast",
        'verbatim export --out ./vault --search "interest rates"',
      ),
    )
    .action(action(exportNotes));
}
