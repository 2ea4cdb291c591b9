import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { date } from "../format";

async function keyShow(ctx: Context): Promise<number> {
  const key = await ctx.api.ok(ctx.api.client.GET("/v1/me/api-key"));
  if (ctx.out.json) ctx.out.writeJson(key);
  else if (!key.has_key)
    ctx.out.info(
      "No API key yet. Create one on the dashboard: verbatim open keys (a login's token cannot create keys).",
    );
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
async function keyRegenerate(ctx: Context, options: { yes?: boolean }): Promise<number> {
  if (!options.yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY)
      throw new CliError("Regenerating stops the current key at once; pass --yes to confirm.", EXIT.usage);
    if (!(await confirm("The current API key stops working immediately. Regenerate?"))) return EXIT.other;
  }
  const key = await ctx.api.ok(ctx.api.client.POST("/v1/me/api-key/regenerate"));
  if (ctx.out.json) ctx.out.writeJson(key);
  else {
    ctx.out.write(`${key.key}\n`);
    ctx.out.info("This is the only time the key is shown: store it now. The previous key no longer works.");
  }
  return EXIT.ok;
}

export function registerKey(program: Command): void {
  const key = program
    .command("key")
    .description("Your API key")
    .addHelpText("after", examples("verbatim key show", "verbatim key regenerate --yes"));
  withJson(key.command("show"))
    .description("Show your API key's prefix, creation date and tier (the key itself is shown only when made)")
    .addHelpText("after", examples("verbatim key show"))
    .action(action(keyShow));
  withJson(key.command("regenerate"))
    .description("Make a new API key; the old one stops working at once. Prints the new key")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText(
      "after",
      examples("verbatim key regenerate", "export VERBATIM_API_KEY=$(verbatim key regenerate --yes)"),
    )
    .action(action(keyRegenerate));
}
