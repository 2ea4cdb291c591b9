import { Option, type Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { date, table } from "../format";

interface FollowRow {
  id: string;
  kind: string;
  title: string | null;
  url: string;
  state: string;
  note: string | null;
  items_seen: number;
  next_check_at: string | null;
}

function describeState(f: FollowRow): string {
  return f.state === "active" ? `active, next check ${date(f.next_check_at)}` : f.state;
}

function summary(ctx: Context, f: FollowRow, verb: string): number {
  if (ctx.out.json) ctx.out.writeJson(f);
  else {
    ctx.out.write(`${verb} ${f.title ?? f.url} (${f.id}): ${describeState(f)}\n`);
    if (f.note) ctx.out.info(f.note);
  }
  return EXIT.ok;
}

async function followAdd(
  ctx: Context,
  url: string,
  options: { lang?: string; backfill?: string; publish?: boolean },
): Promise<number> {
  const backfill = options.backfill === undefined ? undefined : Number(options.backfill);
  if (backfill !== undefined && (!Number.isInteger(backfill) || backfill < 0))
    throw new CliError(`--backfill takes a whole number: ${options.backfill}`, EXIT.usage);
  const created = await ctx.api.ok(
    ctx.api.client.POST("/v1/follows", {
      body: {
        url,
        ...(options.lang ? { lang: options.lang } : {}),
        ...(backfill !== undefined ? { backfill } : {}),
        ...(options.publish ? { publish: true } : {}),
      },
    }),
  );
  return summary(ctx, created, "Following");
}

async function followList(ctx: Context): Promise<number> {
  const follows = await ctx.api.ok(ctx.api.client.GET("/v1/follows"));
  if (ctx.out.json) ctx.out.writeJson(follows);
  else if (follows.length === 0) ctx.out.info("You follow nothing yet: verbatim follow add <feed or channel URL>");
  else
    ctx.out.write(
      table(
        ["ID", "KIND", "STATE", "ITEMS", "NEXT CHECK", "TITLE"],
        follows.map((f) => [
          f.id,
          f.kind,
          f.state,
          String(f.items_seen),
          f.state === "active" ? date(f.next_check_at) : "",
          f.title ?? f.url,
        ]),
      ),
    );
  return EXIT.ok;
}

async function followShow(ctx: Context, id: string): Promise<number> {
  const follow = await ctx.api.ok(ctx.api.client.GET("/v1/follows/{id}", { params: { path: { id } } }));
  if (ctx.out.json) {
    ctx.out.writeJson(follow);
    return EXIT.ok;
  }
  ctx.out.write(`${follow.title ?? follow.url}\n${follow.url}\n${describeState(follow)}\n`);
  if (follow.note) ctx.out.write(`${follow.note}\n`);
  const found = follow.items.filter((i) => i.status !== "seen");
  if (found.length > 0)
    ctx.out.write(
      table(
        ["FOUND", "STATUS", "TITLE"],
        found.map((i) => [date(i.found_at), i.note ? `${i.status}: ${i.note}` : i.status, i.title]),
      ),
    );
  else ctx.out.info("No new items yet.");
  return EXIT.ok;
}

function patch(state: "paused" | "active", verb: string) {
  return async (ctx: Context, id: string): Promise<number> => {
    const follow = await ctx.api.ok(
      ctx.api.client.PATCH("/v1/follows/{id}", { params: { path: { id } }, body: { state } }),
    );
    return summary(ctx, follow, verb);
  };
}

async function followCheck(ctx: Context, id: string): Promise<number> {
  const follow = await ctx.api.ok(ctx.api.client.POST("/v1/follows/{id}/check", { params: { path: { id } } }));
  return summary(ctx, follow, "Checking");
}

async function followRemove(ctx: Context, id: string): Promise<number> {
  await ctx.api.ok(ctx.api.client.DELETE("/v1/follows/{id}", { params: { path: { id } } }));
  if (ctx.out.json) ctx.out.writeJson({ id, deleted: true });
  else ctx.out.info(`No longer following ${id}. Its transcripts stay in your history.`);
  return EXIT.ok;
}

export function registerFollow(program: Command): void {
  const follow = withJson(program.command("follow"))
    .description("Follow a show: each new episode or video is transcribed as it appears")
    .addHelpText(
      "after",
      examples(
        "verbatim follow add https://feeds.npr.org/510289/podcast.xml --backfill 2",
        "verbatim follow add https://www.youtube.com/@channel",
        "verbatim follow list",
        "verbatim follow show <id>",
        "verbatim follow pause <id>",
      ),
    )
    .action(action(followList));
  withJson(follow.command("add"))
    .description("Follow a podcast feed, Apple Podcasts show, or YouTube channel or playlist")
    .argument("<url>", "the feed's, show's, channel's or playlist's URL")
    .addOption(new Option("--lang <code>", "the language new items are transcribed in"))
    .addOption(new Option("--backfill <n>", "also transcribe the latest n items already there"))
    .addOption(new Option("--publish", "publish each new item's transcript"))
    .action(action(followAdd));
  withJson(follow.command("list")).description("The shows you follow").action(action(followList));
  withJson(follow.command("show"))
    .description("One follow and the items it found")
    .argument("<id>", "the follow's id (from `verbatim follow list`)")
    .action(action(followShow));
  withJson(follow.command("pause"))
    .description("Stop checking a follow")
    .argument("<id>", "the follow's id")
    .action(action(patch("paused", "Paused")));
  withJson(follow.command("resume"))
    .description("Resume a paused follow (it is checked at once)")
    .argument("<id>", "the follow's id")
    .action(action(patch("active", "Resumed")));
  withJson(follow.command("check"))
    .description("Check a follow now")
    .argument("<id>", "the follow's id")
    .action(action(followCheck));
  withJson(follow.command("rm"))
    .description("Stop following (transcripts already made stay)")
    .argument("<id>", "the follow's id")
    .action(action(followRemove));
}
