import { Argument, type Command } from "commander";
import { openBrowser } from "../browser";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";

const DASHBOARD_PAGES = ["dashboard", "history", "keys", "billing", "imports", "published", "webhooks"] as const;

async function openDashboard(
  ctx: Context,
  page: (typeof DASHBOARD_PAGES)[number],
  options: { browser: boolean },
): Promise<number> {
  const url = `${ctx.api.baseUrl}/dashboard${page === "dashboard" ? "" : `/${page}`}`;
  const opened = options.browser && (await openBrowser(ctx.out, url));
  if (ctx.out.json) ctx.out.writeJson({ url, opened });
  else if (opened) ctx.out.info(`Opened ${url}`);
  else ctx.out.write(`${url}\n`);
  return EXIT.ok;
}

export function registerOpen(program: Command): void {
  withJson(program.command("open"))
    .description("Open the dashboard in your browser")
    .addArgument(new Argument("[page]", "which page").choices(DASHBOARD_PAGES).default("dashboard"))
    .option("--no-browser", "print the link instead")
    .addHelpText("after", examples("verbatim open", "verbatim open billing"))
    .action(action(openDashboard));
}
