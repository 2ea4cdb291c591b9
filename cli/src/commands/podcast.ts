import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { date, table } from "../format";

async function resolvePodcast(ctx: Context, url: string, options: { limit: string; offset: string }): Promise<number> {
  const body = { url, limit: Number(options.limit), offset: Number(options.offset) };
  const resolved = await ctx.api.ok(ctx.api.client.POST("/v1/podcast/resolve", { body }));
  if (ctx.out.json) {
    ctx.out.writeJson(resolved);
    return EXIT.ok;
  }
  if (resolved.show) ctx.out.info(`${ctx.out.color.bold(resolved.show.title)} (${resolved.kind})`);
  const episodes = resolved.episodes ?? [];
  if (episodes.length > 0) {
    ctx.out.write(
      table(
        ["PUBLISHED", "DURATION", "TITLE", "AUDIO"],
        episodes.map((e) => [date(e.published).slice(0, 10), e.duration ?? "-", e.title, e.audio_url]),
        ctx.out.color.bold,
      ),
    );
  } else if (resolved.audio_url) ctx.out.write(`${resolved.audio_url}\n`);
  if (resolved.total_episodes !== undefined && resolved.next_offset != null) {
    ctx.out.info(
      `${episodes.length} of ${resolved.total_episodes} episodes; the next ones: --offset ${resolved.next_offset}`,
    );
  }
  ctx.out.info("Transcribe an episode with: verbatim get <audio url>; the whole show with: verbatim import <url>");
  return EXIT.ok;
}

export function registerPodcast(program: Command): void {
  const podcast = program
    .command("podcast")
    .description("Podcasts: resolve a feed, an Apple Podcasts link or an episode")
    .addHelpText("after", examples("verbatim podcast resolve https://feeds.example.com/show.xml"));
  withJson(podcast.command("resolve"))
    .description("A podcast feed, Apple Podcasts link or audio URL: the show and its episodes")
    .argument("<url>", "feed, Apple Podcasts or audio link")
    .option("-n, --limit <n>", "episodes of a feed to list (1-500)", "100")
    .option("--offset <n>", "skip this many episodes (newest first)", "0")
    .addHelpText(
      "after",
      examples(
        "verbatim podcast resolve https://podcasts.apple.com/us/podcast/id1200361736",
        "verbatim podcast resolve https://feeds.example.com/show.xml --offset 100 --json",
      ),
    )
    .action(action(resolvePodcast));
}
