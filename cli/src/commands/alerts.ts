import { Option, type Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { date, table } from "../format";

type Scope = "library" | "team" | "follows" | "public";

interface AlertRow {
  id: string;
  name: string;
  query: string;
  mode: string;
  paused: boolean;
  unread: number;
  feed_url: string;
  scope: { kind: string };
}

function summary(ctx: Context, alert: AlertRow, verb: string): number {
  if (ctx.out.json) ctx.out.writeJson(alert);
  else {
    ctx.out.write(
      `${verb} "${alert.name}" (${alert.id}): ${alert.paused ? "paused" : "active"}, ${alert.scope.kind}\n`,
    );
    ctx.out.info(`Atom feed (keep it secret): ${alert.feed_url}`);
  }
  return EXIT.ok;
}

async function alertsAdd(
  ctx: Context,
  query: string,
  options: {
    name?: string;
    scope?: Scope;
    team?: string;
    follow?: string[];
    meaning?: boolean;
    closeness?: string;
    email?: boolean;
  },
): Promise<number> {
  const kind: Scope = options.scope ?? (options.team ? "team" : options.follow?.length ? "follows" : "library");
  const closeness = options.closeness === undefined ? undefined : Number(options.closeness);
  if (closeness !== undefined && !(closeness >= 0.3 && closeness <= 1))
    throw new CliError(`--closeness takes a number from 0.3 to 1: ${options.closeness}`, EXIT.usage);
  const created = await ctx.api.ok(
    ctx.api.client.POST("/v1/alerts", {
      body: {
        query,
        ...(options.name ? { name: options.name } : {}),
        mode: options.meaning ? "meaning" : "words",
        closeness: closeness ?? 0.5,
        scope: { kind, team_id: options.team ?? null, follow_ids: options.follow ?? [] },
        email: options.email ?? false,
      },
    }),
  );
  return summary(ctx, created, "Saved alert");
}

async function alertsList(ctx: Context): Promise<number> {
  const { alerts, unread } = await ctx.api.ok(ctx.api.client.GET("/v1/alerts"));
  if (ctx.out.json) ctx.out.writeJson({ alerts, unread });
  else if (alerts.length === 0) ctx.out.info('No alerts yet: verbatim alerts add "words to watch for"');
  else {
    ctx.out.write(
      table(
        ["ID", "STATE", "SCOPE", "UNREAD", "CREATED", "QUERY"],
        alerts.map((a) => [
          a.id,
          a.paused ? "paused" : "active",
          a.scope.kind,
          String(a.unread),
          date(a.created_at),
          a.mode === "meaning" ? `~ ${a.query}` : a.query,
        ]),
      ),
    );
    ctx.out.info(`${unread} unread matches in all.`);
  }
  return EXIT.ok;
}

async function alertsShow(ctx: Context, id: string): Promise<number> {
  const { matches, unread } = await ctx.api.ok(
    ctx.api.client.GET("/v1/alerts/{id}/matches", { params: { path: { id } } }),
  );
  if (ctx.out.json) ctx.out.writeJson({ matches, unread });
  else if (matches.length === 0) ctx.out.info("No matches yet.");
  else
    for (const m of matches) {
      ctx.out.write(`${m.read ? " " : "*"} ${date(m.matched_at)}  ${m.title ?? m.transcript_id}\n`);
      for (const moment of m.moments)
        ctx.out.write(
          `    ${Math.floor(moment.start)}s line ${moment.segment_index + 1}: ${moment.text}\n    ${moment.links.page ?? moment.links.viewer ?? moment.links.source ?? ""}\n`,
        );
    }
  return EXIT.ok;
}

function patch(paused: boolean, verb: string) {
  return async (ctx: Context, id: string): Promise<number> => {
    const alert = await ctx.api.ok(
      ctx.api.client.PATCH("/v1/alerts/{id}", { params: { path: { id } }, body: { paused } }),
    );
    return summary(ctx, alert, verb);
  };
}

async function alertsRemove(ctx: Context, id: string): Promise<number> {
  await ctx.api.ok(ctx.api.client.DELETE("/v1/alerts/{id}", { params: { path: { id } } }));
  if (ctx.out.json) ctx.out.writeJson({ id, deleted: true });
  else ctx.out.info(`Deleted alert ${id}, its matches and its feed.`);
  return EXIT.ok;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerAlerts(program: Command): void {
  const alerts = withJson(program.command("alerts"))
    .description("Saved searches: be told when a new transcript says what you watch for")
    .addHelpText(
      "after",
      examples(
        "verbatim alerts add '\"interest rates\" inflation -bitcoin' --email",
        "verbatim alerts add 'rocket OR launch' --scope public",
        "verbatim alerts add 'how do teams handle on-call burnout' --meaning --closeness 0.6",
        "verbatim alerts ls",
        "verbatim alerts show <id>",
        "verbatim alerts pause <id>",
        "verbatim alerts rm <id>",
      ),
    )
    .action(action(alertsList));
  withJson(alerts.command("add"))
    .description("Save a search as an alert")
    .argument("<query>", 'words, "a phrase", -word, OR (or, with --meaning, a question)')
    .addOption(new Option("--name <name>", "a name for it (default: the query)"))
    .addOption(new Option("--scope <scope>", "where it watches").choices(["library", "team", "follows", "public"]))
    .addOption(new Option("--team <id>", "a team's library you are a member of (scope team)"))
    .addOption(
      new Option("--follow <id>", "a follow whose episodes it watches (repeat it; scope follows)").argParser(collect),
    )
    .addOption(new Option("--meaning", "match by meaning instead of words"))
    .addOption(new Option("--closeness <n>", "with --meaning: how alike (0.3 to 1, default 0.5)"))
    .addOption(new Option("--email", "also mail each match to you"))
    .action(action(alertsAdd));
  withJson(alerts.command("ls"))
    .alias("list")
    .description("Your alerts and their unread matches")
    .action(action(alertsList));
  withJson(alerts.command("show"))
    .description("An alert's matches, newest first (* unread)")
    .argument("<id>", "the alert's id (from `verbatim alerts ls`)")
    .action(action(alertsShow));
  withJson(alerts.command("pause"))
    .description("Pause an alert: nothing more is matched or sent")
    .argument("<id>", "the alert's id")
    .action(action(patch(true, "Paused")));
  withJson(alerts.command("resume"))
    .description("Resume a paused alert")
    .argument("<id>", "the alert's id")
    .action(action(patch(false, "Resumed")));
  withJson(alerts.command("rm"))
    .alias("remove")
    .description("Delete an alert, its matches and its feed")
    .argument("<id>", "the alert's id")
    .action(action(alertsRemove));
}
