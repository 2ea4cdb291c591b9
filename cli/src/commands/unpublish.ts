import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";

async function unpublish(ctx: Context, slug: string): Promise<number> {
  if (!/^[\w-]{1,200}$/.test(slug))
    throw new CliError(`Not a slug: ${slug} (the last part of a /t/<slug> link)`, EXIT.usage);
  await ctx.api.ok(ctx.api.client.DELETE("/v1/publish/{slug}", { params: { path: { slug } } }));
  if (ctx.out.json) ctx.out.writeJson({ slug, published: false });
  else ctx.out.info(`Unpublished ${slug}. Publishing it again brings back the same link.`);
  return EXIT.ok;
}

export function registerUnpublish(program: Command): void {
  withJson(program.command("unpublish"))
    .description("Take a published transcript off its public page")
    .argument("<slug>", "the last part of its /t/<slug> link")
    .addHelpText("after", examples("verbatim unpublish how-bread-rises-x7k2"))
    .action(action(unpublish));
}
