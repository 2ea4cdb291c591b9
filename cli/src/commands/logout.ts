import type { Command } from "commander";
import { formBody } from "../api";
import { action, examples, withJson } from "../command";
import { readLogin, removeLogin } from "../config";
import type { Context } from "../context";
import { EXIT } from "../errors";

/** Revokes the stored login on the server (its whole grant) and forgets it here. */
async function logout(ctx: Context): Promise<number> {
  const { api, out } = ctx;
  const stored = await readLogin(api.baseUrl);
  if (!stored) {
    if (out.json) out.writeJson({ base_url: api.baseUrl, logged_out: false, revoked: false });
    else out.info(`Not logged in to ${api.baseUrl}.`);
    return EXIT.ok;
  }
  let revoked = false;
  try {
    const token = stored.refresh_token ?? stored.access_token;
    revoked = (await api.answer(api.anonymous.POST("/oauth/revoke", { body: { token }, ...formBody }))).response.ok;
  } catch {
    revoked = false;
  }
  await removeLogin(api.baseUrl);
  if (out.json) out.writeJson({ base_url: api.baseUrl, logged_out: true, revoked });
  else
    out.info(
      `Logged out of ${api.baseUrl}${revoked ? "" : " (the server could not be told; the token expires within the hour)"}.`,
    );
  if (process.env.VERBATIM_API_KEY) out.info("VERBATIM_API_KEY is still set: commands keep using it.");
  return EXIT.ok;
}

export function registerLogout(program: Command): void {
  withJson(program.command("logout"))
    .description("Log out: the stored login is revoked on the server and deleted here")
    .addHelpText("after", examples("verbatim logout"))
    .action(action(logout));
}
