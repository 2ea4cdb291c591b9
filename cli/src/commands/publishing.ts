import type { PublishResponse } from "@/lib/publishing/schemas";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";

export async function publish(ctx: Context, url: string, options: { lang: string }): Promise<number> {
  const published = await ctx.api.post<PublishResponse>("/v1/publish", { url, lang: options.lang });
  if (ctx.out.json) ctx.out.writeJson(published);
  else {
    ctx.out.write(`${published.url}\n`);
    ctx.out.info(`Published as ${published.slug}. Take it down with: verbatim unpublish ${published.slug}`);
  }
  return EXIT.ok;
}

export async function unpublish(ctx: Context, slug: string): Promise<number> {
  if (!/^[\w-]{1,200}$/.test(slug)) throw new CliError(`Not a slug: ${slug} (the last part of a /t/<slug> link)`, EXIT.usage);
  await ctx.api.request("DELETE", `/v1/publish/${encodeURIComponent(slug)}`);
  if (ctx.out.json) ctx.out.writeJson({ slug, published: false });
  else ctx.out.info(`Unpublished ${slug}. Publishing it again brings back the same link.`);
  return EXIT.ok;
}
