import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { describeUsage } from "../../../lib/usage/describe-usage";

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
  out.write(
    [
      `Logged in to ${api.baseUrl} as ${out.color.bold(me.email ?? me.name ?? me.id)} (${credential === "api_key" ? "VERBATIM_API_KEY" : "device login"})`,
      `Tier: ${usage.tier}${usage.pending_tier ? ` (changes to ${usage.pending_tier} on ${usage.pending_change_at?.slice(0, 10)})` : ""}`,
      `Usage: ${describeUsage(usage)}`,
    ].join("\n") + "\n",
  );
  return EXIT.ok;
}

export function registerWhoami(program: Command): void {
  withJson(program.command("whoami"))
    .description("Who you are logged in as, your tier, and this period's usage")
    .addHelpText("after", examples("verbatim whoami", "verbatim whoami --json | jq .usage.used_seconds"))
    .action(action(whoami));
}
