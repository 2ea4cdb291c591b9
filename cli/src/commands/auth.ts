import type { Me } from "@/lib/auth/schemas";
import type { SubscriptionResponse } from "@/lib/usage/schemas";
import { loginFromTokens, type TokenAnswer } from "../api";
import { openBrowser } from "../browser";
import { readLogin, removeLogin, saveLogin } from "../config";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { minutes } from "../format";

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  interval: number;
  expires_in: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The device flow (RFC 8628): show the code, open the approval page, poll at the interval, store the tokens. */
export async function login(ctx: Context, options: { browser: boolean }): Promise<number> {
  const { api, out } = ctx;
  const started = await api.post<DeviceCode>("/v1/device/code", { client_id: "verbatim-cli" }, { auth: false });
  out.info(`First copy your one-time code: ${out.color.bold(started.user_code)}`);
  const opened = options.browser && (await openBrowser(out, started.verification_uri_complete));
  out.info(`${opened ? "Opened" : "Open"} ${started.verification_uri_complete} ${opened ? "in your browser; approve there." : "in a browser and approve the code."}`);
  out.info("Waiting for approval… (Ctrl-C to give up)");

  let interval = Math.max(1, started.interval);
  const deadline = Date.now() + started.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const answer = await api.call<TokenAnswer & { error?: string; error_description?: string }>("POST", "/v1/device/token", { body: { device_code: started.device_code }, auth: false });
    if (answer.ok) {
      const login = loginFromTokens(answer.body);
      api.credential = { kind: "login", login };
      const me = await api.get<Me>("/v1/me");
      await saveLogin(api.baseUrl, login);
      if (out.json) out.writeJson({ base_url: api.baseUrl, user: me });
      else out.info(`${out.color.green("✓")} Logged in to ${api.baseUrl} as ${me.email ?? me.name ?? me.id}`);
      if (process.env.VERBATIM_API_KEY) out.info("Note: VERBATIM_API_KEY is set and is used instead of this login until you unset it.");
      return EXIT.ok;
    }
    switch (answer.body?.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval += 5;
        continue;
      case "access_denied":
        throw new CliError("The login was denied in the browser.", EXIT.auth, "access_denied");
      case "expired_token":
        throw new CliError("The code expired before it was approved. Run `verbatim login` again.", EXIT.auth, "expired_token");
      default:
        throw new CliError(answer.body?.error_description ?? `The server refused the login (${answer.status}).`, answer.status >= 500 ? EXIT.upstream : EXIT.auth, answer.body?.error ?? null);
    }
  }
  throw new CliError("The code expired before it was approved. Run `verbatim login` again.", EXIT.auth, "expired_token");
}

/** Revokes the stored login on the server (its whole grant) and forgets it here. */
export async function logout(ctx: Context): Promise<number> {
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
    revoked = (await api.call("POST", "/oauth/revoke", { form: { token }, auth: false })).ok;
  } catch {
    revoked = false;
  }
  await removeLogin(api.baseUrl);
  if (out.json) out.writeJson({ base_url: api.baseUrl, logged_out: true, revoked });
  else out.info(`Logged out of ${api.baseUrl}${revoked ? "" : " (the server could not be told; the token expires within the hour)"}.`);
  if (process.env.VERBATIM_API_KEY) out.info("VERBATIM_API_KEY is still set: commands keep using it.");
  return EXIT.ok;
}

export async function whoami(ctx: Context): Promise<number> {
  const { api, out } = ctx;
  const [me, usage] = await Promise.all([api.get<Me>("/v1/me"), api.get<SubscriptionResponse>("/v1/me/subscription")]);
  const credential = api.credential?.kind === "api_key" ? "api_key" : "login";
  if (out.json) {
    out.writeJson({ base_url: api.baseUrl, credential, user: me, usage });
    return EXIT.ok;
  }
  const left = Math.max(0, usage.limit_seconds - usage.used_seconds);
  out.write(
    [
      `Logged in to ${api.baseUrl} as ${out.color.bold(me.email ?? me.name ?? me.id)} (${credential === "api_key" ? "VERBATIM_API_KEY" : "device login"})`,
      `Tier: ${usage.tier}${usage.pending_tier ? ` (changes to ${usage.pending_tier} on ${usage.pending_change_at?.slice(0, 10)})` : ""}`,
      `Usage this period: ${minutes(usage.used_seconds)} of ${minutes(usage.limit_seconds)} (${minutes(left)} left${usage.current_period_end ? `, renews ${usage.current_period_end.slice(0, 10)}` : ""})`,
    ].join("\n") + "\n",
  );
  return EXIT.ok;
}
