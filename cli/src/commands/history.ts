import { Option, type Command } from "commander";
import { PLATFORMS } from "@/lib/sources/platforms";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { date, duration, table } from "../format";

interface HistoryOptions {
  q?: string;
  platform?: (typeof PLATFORMS)[number];
  state?: "done" | "in_progress" | "error";
  limit: string;
  offset: string;
  sort?: "created_at" | "duration_seconds" | "total_seconds";
  order?: "asc" | "desc";
}

async function history(ctx: Context, options: HistoryOptions): Promise<number> {
  const { q, platform, state, sort, order } = options;
  const query = { q, platform, state, sort, order, limit: Number(options.limit), offset: Number(options.offset) };
  const list = await ctx.api.ok(ctx.api.client.GET("/v1/me/transcriptions", { params: { query } }));
  if (ctx.out.json) {
    ctx.out.writeJson(list);
    return EXIT.ok;
  }
  if (list.transcriptions.length === 0) {
    ctx.out.info(list.total === 0 ? "No transcriptions yet. Try: verbatim get <url>" : "No more transcriptions.");
    return EXIT.ok;
  }
  // A failure's reason in a last column, shown only when the page has a failure.
  const failed = list.transcriptions.some((t) => t.error);
  const rows = list.transcriptions.map((t) => {
    const row = [
      date(t.created_at),
      t.source ?? "-",
      t.lang ?? "-",
      duration(t.total_seconds),
      t.status ?? (t.complete ? "done" : "-"),
      // A file's title (its name), a video's or episode's title; the id only when no title is known.
      t.title ?? t.video_id,
    ];
    return failed ? [...row, t.error ? `${t.error.message} (${t.error.code})` : ""] : row;
  });
  const header = ["CREATED", "PLATFORM", "LANG", "LENGTH", "STATUS", "TITLE", ...(failed ? ["REASON"] : [])];
  ctx.out.write(table(header, rows, ctx.out.color.bold));
  const last = list.offset + list.transcriptions.length;
  if (list.total > last)
    ctx.out.info(`Showing ${list.offset + 1}–${last} of ${list.total}; more with --offset ${last}.`);
  return EXIT.ok;
}

export function registerHistory(program: Command): void {
  withJson(program.command("history"))
    .description("Your past transcriptions, newest first; a failed one with its reason")
    .option("-q, --q <text>", "only video ids or titles containing this text")
    .addOption(new Option("--platform <platform>", "only this platform").choices(PLATFORMS))
    .addOption(new Option("--state <state>", "only this state").choices(["done", "in_progress", "error"]))
    .addOption(new Option("--sort <field>", "sort by").choices(["created_at", "duration_seconds", "total_seconds"]))
    .addOption(new Option("--order <order>", "sort order").choices(["asc", "desc"]))
    .option("-n, --limit <n>", "how many (1-100)", "20")
    .option("--offset <n>", "skip this many", "0")
    .addHelpText(
      "after",
      examples(
        "verbatim history",
        "verbatim history --platform podcast --state done -n 50",
        "verbatim history --state error",
        "verbatim history --json | jq -r '.transcriptions[].video_id'",
      ),
    )
    .action(action(history));
}
