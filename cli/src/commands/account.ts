import { createInterface } from "node:readline/promises";
import type { ApiKeyState } from "@/lib/auth/serializers";
import { openBrowser } from "../browser";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { date } from "../format";

export async function keyShow(ctx: Context): Promise<number> {
  const key = await ctx.api.get<ApiKeyState>("/v1/me/api-key");
  if (ctx.out.json) ctx.out.writeJson(key);
  else if (!key.has_key) ctx.out.info("No API key yet. Create one on the dashboard: verbatim open keys (a login's token cannot create keys).");
  else ctx.out.write(`${key.key_prefix}… (created ${date(key.created_at)}, tier ${key.tier})\n`);
  return EXIT.ok;
}

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/** A new key replaces the old one at once; asks first unless --yes (and refuses to guess without a terminal). */
export async function keyRegenerate(ctx: Context, options: { yes?: boolean }): Promise<number> {
  if (!options.yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY) throw new CliError("Regenerating stops the current key at once; pass --yes to confirm.", EXIT.usage);
    if (!(await confirm("The current API key stops working immediately. Regenerate?"))) return EXIT.other;
  }
  const key = await ctx.api.post<ApiKeyState>("/v1/me/api-key/regenerate");
  if (ctx.out.json) ctx.out.writeJson(key);
  else {
    ctx.out.write(`${key.key}\n`);
    ctx.out.info("This is the only time the key is shown: store it now. The previous key no longer works.");
  }
  return EXIT.ok;
}

export const DASHBOARD_PAGES = ["dashboard", "history", "keys", "billing", "imports", "published", "webhooks"] as const;

export async function openDashboard(ctx: Context, page: string, options: { browser: boolean }): Promise<number> {
  if (!(DASHBOARD_PAGES as readonly string[]).includes(page)) throw new CliError(`Unknown page: ${page}. One of: ${DASHBOARD_PAGES.join(", ")}`, EXIT.usage);
  const url = `${ctx.api.baseUrl}/dashboard${page === "dashboard" ? "" : `/${page}`}`;
  const opened = options.browser && (await openBrowser(ctx.out, url));
  if (ctx.out.json) ctx.out.writeJson({ url, opened });
  else if (opened) ctx.out.info(`Opened ${url}`);
  else ctx.out.write(`${url}\n`);
  return EXIT.ok;
}
