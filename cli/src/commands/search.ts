import { Option, type Command } from "commander";
import { PLATFORMS } from "@/lib/sources/platforms";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { table, timestamp } from "../format";

interface SearchOptions {
  platform?: (typeof PLATFORMS)[number];
  lang?: string;
  limit: string;
  cursor?: string;
  mode?: "hybrid" | "keyword" | "meaning";
}

const TITLE_CHARS = 40;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The snippet on one line, its matched words set off by `mark`. */
function marked(snippet: string, highlights: number[][], mark: (text: string) => string): string {
  let out = "";
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at) continue;
    out += snippet.slice(at, start) + mark(snippet.slice(start, end));
    at = end;
  }
  return (out + snippet.slice(at)).replace(/\s+/g, " ");
}

/** `verbatim search "<query>"`: moments of what was said in your transcripts, as a table (time, title, snippet) or --json. */
async function search(ctx: Context, query: string, options: SearchOptions): Promise<number> {
  const params = {
    query: {
      q: query,
      platform: options.platform,
      lang: options.lang,
      limit: Number(options.limit),
      cursor: options.cursor,
      mode: options.mode,
    },
  };
  const found = await ctx.api.ok(ctx.api.client.GET("/v1/me/search", { params }));
  if (ctx.out.json) {
    ctx.out.writeJson(found);
    return EXIT.ok;
  }
  if (found.results.length === 0) {
    ctx.out.info(
      `Nothing in your transcripts matches "${query}".${found.nothing_close ? " Nothing said there is close to it in meaning." : ""}${found.did_you_mean ? ` Did you mean "${found.did_you_mean}"?` : ""}${found.partial ? " The search ran out of time: ask again in a few seconds." : ""}`,
    );
    return EXIT.ok;
  }
  // Matched words: bold on a terminal, between * elsewhere (pipes, NO_COLOR).
  const mark = ctx.out.interactive ? ctx.out.color.bold : (text: string) => `*${text}*`;
  const rows = found.results.map((m) => [
    timestamp(Math.floor(m.start)),
    clip(m.title ?? m.video_id ?? m.transcript_id, TITLE_CHARS),
    marked(m.snippet, m.highlights, mark),
  ]);
  ctx.out.write(table(["TIME", "TITLE", "SNIPPET"], rows, ctx.out.color.bold));
  if (found.next_cursor) ctx.out.info(`More with --cursor ${found.next_cursor}`);
  if (found.partial) ctx.out.info("The search ran out of time: there may be more; ask again in a few seconds.");
  return EXIT.ok;
}

export function registerSearch(program: Command): void {
  withJson(program.command("search"))
    .description("Search what was said in your transcripts: the moments, with their time and a snippet")
    .argument("<query>", 'words (any form), "a phrase", -exclude, OR')
    .addOption(new Option("--platform <platform>", "only this platform").choices(PLATFORMS))
    .option("-l, --lang <lang>", "only transcripts in this language")
    .option("-n, --limit <n>", "how many moments (1-50)", "20")
    .option("--cursor <cursor>", "the next page (printed after a full page)")
    .addOption(
      new Option(
        "--mode <mode>",
        "hybrid: the words said and what the query means (default); keyword: only the words; meaning: only by meaning",
      ).choices(["hybrid", "keyword", "meaning"]),
    )
    .addHelpText(
      "after",
      examples(
        'verbatim search "growth mindset"',
        'verbatim search "why talent is not enough" --mode meaning',
        "verbatim search '\"suez crisis\" -film' --lang en",
        "verbatim search 比特币 --json | jq -r '.results[].links.source'",
      ),
    )
    .action(action(search));
}
