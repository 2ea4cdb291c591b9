import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { duration, table } from "../format";

async function languages(ctx: Context, url: string): Promise<number> {
  const found = await ctx.api.ok(ctx.api.anonymous.GET("/v1/languages", { params: { query: { url } } }));
  if (ctx.out.json) {
    ctx.out.writeJson(found);
    return EXIT.ok;
  }
  ctx.out.info(`${found.title ?? found.video_id} (${found.platform}, ${duration(found.duration_seconds)})`);
  if (found.languages.length === 0) ctx.out.info("No captions: `verbatim get` transcribes it with speech recognition.");
  else
    ctx.out.write(
      table(
        ["CODE", "KIND", "NAME"],
        found.languages.map((l) => [l.code, l.kind, l.name]),
        ctx.out.color.bold,
      ),
    );
  return EXIT.ok;
}

export function registerLanguages(program: Command): void {
  withJson(program.command("languages"))
    .description("Caption languages a link has")
    .argument("<url>", "a video link")
    .addHelpText("after", examples("verbatim languages https://www.youtube.com/watch?v=dQw4w9WgXcQ"))
    .action(action(languages));
}
