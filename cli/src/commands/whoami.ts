import type { Command } from "commander";
import type { Schemas } from "../api";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { describeUsage } from "../../../lib/usage/describe-usage";

/**
 * whoami's lines for a person. On a server without limits no plan applies: the tier every account carries
 * ("free") is left out rather than shown as a plan the user is on, and the usage line says there is no limit.
 */
export function whoamiText(input: {
  baseUrl: string;
  me: Schemas["Me"];
  usage: Schemas["SubscriptionResponse"];
  credential: "api_key" | "login";
  bold?: (text: string) => string;
}): string {
  const { me, usage } = input;
  const who = (input.bold ?? String)(me.email ?? me.name ?? me.id);
  const pending = usage.pending_tier
    ? ` (changes to ${usage.pending_tier} on ${usage.pending_change_at?.slice(0, 10)})`
    : "";
  return [
    `Logged in to ${input.baseUrl} as ${who} (${input.credential === "api_key" ? "VERBATIM_API_KEY" : "device login"})`,
    ...(usage.unlimited ? [] : [`Tier: ${usage.tier}${pending}`]),
    `Usage: ${describeUsage(usage)}`,
  ].join("\n");
}

async function whoami(ctx: Context): Promise<number> {
  const { api, out } = ctx;
  const [me, usage] = await Promise.all([
    api.ok(api.client.GET("/v1/me")),
    api.ok(api.client.GET("/v1/me/subscription")),
  ]);
  const credential = api.credential?.kind === "api_key" ? "api_key" : "login";
  if (out.json) {
    out.writeJson({ base_url: api.baseUrl, credential, user: me, usage });
    return EXIT.ok;
  }
  out.write(whoamiText({ baseUrl: api.baseUrl, me, usage, credential, bold: out.color.bold }) + "\n");
  return EXIT.ok;
}

export function registerWhoami(program: Command): void {
  withJson(program.command("whoami"))
    .description("Who you are logged in as, your tier, and this period's usage")
    .addHelpText("after", examples("verbatim whoami", "verbatim whoami --json | jq .usage.used_seconds"))
    .action(action(whoami));
}
