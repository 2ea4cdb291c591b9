import type { Command } from "commander";
import { loginFromTokens } from "../api";
import { openBrowser } from "../browser";
import { action, examples, withJson } from "../command";
import { saveLogin } from "../config";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The device flow (RFC 8628): show the code, open the approval page, poll at the interval, store the tokens. */
async function login(ctx: Context, options: { browser: boolean }): Promise<number> {
  const { api, out } = ctx;
  const started = await api.ok(api.anonymous.POST("/v1/device/code", { body: { client_id: "verbatim-cli" } }));
  out.info(`First copy your one-time code: ${out.color.bold(started.user_code)}`);
  const opened = options.browser && (await openBrowser(out, started.verification_uri_complete));
  out.info(
    `${opened ? "Opened" : "Open"} ${started.verification_uri_complete} ${opened ? "in your browser; approve there." : "in a browser and approve the code."}`,
  );
  out.info("Waiting for approval… (Ctrl-C to give up)");

  let interval = Math.max(1, started.interval);
  const deadline = Date.now() + started.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const { data, error, response } = await api.answer(
      api.anonymous.POST("/v1/device/token", { body: { device_code: started.device_code } }),
    );
    if (data) {
      const login = loginFromTokens(data);
      api.credential = { kind: "login", login };
      const me = await api.ok(api.client.GET("/v1/me"));
      await saveLogin(api.baseUrl, login);
      if (out.json) out.writeJson({ base_url: api.baseUrl, user: me });
      else out.info(`${out.color.green("✓")} Logged in to ${api.baseUrl} as ${me.email ?? me.name ?? me.id}`);
      if (process.env.VERBATIM_API_KEY)
        out.info("Note: VERBATIM_API_KEY is set and is used instead of this login until you unset it.");
      return EXIT.ok;
    }
    const refused = error as { error?: string; error_description?: string } | undefined;
    switch (refused?.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval += 5;
        continue;
      case "access_denied":
        throw new CliError("The login was denied in the browser.", EXIT.auth, "access_denied");
      case "expired_token":
        throw new CliError(
          "The code expired before it was approved. Run `verbatim login` again.",
          EXIT.auth,
          "expired_token",
        );
      default:
        throw new CliError(
          refused?.error_description ?? `The server refused the login (${response.status}).`,
          response.status >= 500 ? EXIT.upstream : EXIT.auth,
          refused?.error ?? null,
        );
    }
  }
  throw new CliError(
    "The code expired before it was approved. Run `verbatim login` again.",
    EXIT.auth,
    "expired_token",
  );
}

export function registerLogin(program: Command): void {
  withJson(program.command("login"))
    .description("Log in with your browser (device login): shows a code to approve, then stores the login")
    .option("--no-browser", "do not open the browser; print the link only")
    .addHelpText(
      "after",
      examples("verbatim login", "verbatim login --base-url https://verbatim.example.com --no-browser"),
    )
    .action(action(login));
}
