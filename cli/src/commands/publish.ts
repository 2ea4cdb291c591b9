import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";

async function publish(ctx: Context, url: string, options: { lang: string }): Promise<number> {
  const published = await ctx.api.ok(ctx.api.client.POST("/v1/publish", { body: { url, lang: options.lang } }));
  if (ctx.out.json) ctx.out.writeJson(published);
  else {
    ctx.out.write(`${published.url}\n`);
    ctx.out.info(`Published as ${published.slug}. Take it down with: verbatim unpublish ${published.slug}`);
  }
  return EXIT.ok;
}

export function registerPublish(program: Command): void {
  withJson(program.command("publish"))
    .description("Publish a transcript from your history on a public page; prints its link")
    .argument("<url>", "the link the transcript was made from")
    .option("-l, --lang <lang>", "its language", "en")
    .addHelpText("after", examples("verbatim publish https://www.youtube.com/watch?v=dQw4w9WgXcQ"))
    .action(action(publish));
}
