// One setup check, everywhere: `npm run doctor` prints it, /health carries its summary. Each line is ✓ or ✗
// with the one sentence that fixes it (or ‒ when it does not apply: Stripe and mail unconfigured). What is
// measured (probes) is kept apart from what it means (judge*), so the sentences are tested without a network.

/**
 * What a person can do on this server, as the checks decide it (lib/health/capabilities.ts): links to YouTube,
 * links with captions on the other platforms (through yt-dlp), files (and podcasts and videos without captions).
 */
export type Capability = "youtube" | "links" | "files";

export interface SetupLine {
  id:
    | "database"
    | "youtube"
    | "ytdlp"
    | "ffmpeg"
    | "speech_model"
    | "search_meaning"
    | "outbound_proxy"
    | "stripe"
    | "mail";
  /** true ✓, false ✗, null ‒ (not configured, nothing to check). */
  ok: boolean | null;
  /** What was found, for a person: "PostgreSQL answers", "www.youtube.com: DNS failed (ENOTFOUND)". */
  found: string;
  /** The one sentence that fixes it; null when it is fine. */
  fix: string | null;
  /** A failing line only: what stops working for people while it fails (none: the setup is poorer, nothing stops). */
  cuts?: readonly Capability[];
  /**
   * How it works where there are several ways (search_meaning: `hnsw`, pgvector's index; `lists`, the lists of
   * vectors in plain tables; or `bounded`).
   */
  way?: string;
}

/** How a TCP connection to a host went: the OS's error code, or null when it connected. */
export type ConnectResult = { ok: true } | { ok: false; code: string };

export function judgeDatabase(result: { ok: boolean; kind: string; error?: string }): SetupLine {
  return result.ok
    ? { id: "database", ok: true, found: `${result.kind} answers`, fix: null }
    : {
        id: "database",
        ok: false,
        found: `no answer${result.error ? ` (${result.error})` : ""}`,
        fix: "Start PostgreSQL or correct DATABASE_URL (unset, the embedded database under DATA_DIR is used).",
        cuts: ["youtube", "links", "files"],
      };
}

/** What the running app that holds the embedded database said when `npm run doctor` asked its /health. */
export type RunningAppAnswer =
  | { asked: false }
  | { asked: true; ok: true; status: string; database: string }
  | { asked: true; ok: false; error: string };

/**
 * The database line while the app runs on the embedded database: it holds the data folder (its lock), so the
 * doctor asks the app's /health instead of opening the folder a second time.
 */
export function judgeRunningApp(holder: { pid: number; port?: number }, answer: RunningAppAnswer): SetupLine {
  const app = `the running app (pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ""}) holds the embedded database`;
  if (!answer.asked) return { id: "database", ok: true, found: `${app} (its port is not known: not asked)`, fix: null };
  if (!answer.ok)
    return {
      id: "database",
      ok: false,
      found: `${app}, but its /health did not answer (${answer.error})`,
      fix: "See that process's log; stop it (SIGTERM) and start the app again if it does not answer.",
      cuts: ["youtube", "links", "files"],
    };
  if (answer.database === "ok")
    return { id: "database", ok: true, found: `${app}, healthy (its /health: database ok)`, fix: null };
  return {
    id: "database",
    ok: false,
    found: `${app}, but its /health says database ${answer.database}`,
    fix: "See the app's log for the embedded database's errors; restart the app (SIGTERM, then npm start) if it stays so.",
    cuts: ["youtube", "links", "files"],
  };
}

/**
 * What one real InnerTube request got (lib/health/probe-youtube.ts): an answer, or the caption lookup's error
 * code (upstream_dns_failed, upstream_refused, upstream_tls_failed, upstream_blocked, upstream_rate_limited,
 * po_token_required, upstream_failed…) with its message.
 */
export type YoutubeAnswer = { ok: true; detail: string } | { ok: false; code: string; detail: string };

/** Reaching YouTube (or the proxy in front of it) and getting a real answer: each cause its own fix. */
export function judgeYoutube(host: string, viaProxy: string | null, result: YoutubeAnswer): SetupLine {
  const where = viaProxy ? `${host} through the proxy ${viaProxy}` : host;
  if (result.ok) return { id: "youtube", ok: true, found: `${where}: ${result.detail}`, fix: null };
  const [what, fix] = youtubeFailure(result.code, viaProxy !== null);
  // A name that does not resolve without a proxy: this machine has no working DNS, so no platform answers either.
  const cuts: Capability[] = result.code === "upstream_dns_failed" && !viaProxy ? ["youtube", "links"] : ["youtube"];
  return { id: "youtube", ok: false, found: `${where}: ${what ?? result.detail} (${result.code})`, fix, cuts };
}

/** What went wrong in words (null: the lookup's own message says it best) and the sentence that fixes it. */
function youtubeFailure(code: string, viaProxy: boolean): [string | null, string] {
  switch (code) {
    case "upstream_dns_failed":
      return [
        "name resolution failed",
        viaProxy
          ? "The proxy's name does not resolve: correct its address in YOUTUBE_PROXIES / OUTBOUND_PROXY, or give this machine a working DNS server."
          : "Give this machine a working DNS server and a route to the internet; links to platforms cannot work until then.",
      ];
    case "upstream_refused":
      return [
        "connection refused",
        viaProxy
          ? "Start the proxy or correct its address in YOUTUBE_PROXIES / OUTBOUND_PROXY."
          : "A firewall refuses the connection: open outbound HTTPS, or set YOUTUBE_PROXIES to a proxy that can reach YouTube.",
      ];
    case "upstream_tls_failed":
      return [
        "the TLS certificate was not accepted",
        "If this machine reaches the internet through an intercepting proxy, set NODE_EXTRA_CA_CERTS to that proxy's CA certificate file.",
      ];
    case "upstream_blocked":
      return [
        "a bot check (LOGIN_REQUIRED: “Sign in to confirm you’re not a bot”)",
        "YouTube does not trust this server's address: set YOUTUBE_POT_PROVIDER_URL to a PO token provider, or YOUTUBE_PROXIES to proxies on other addresses.",
      ];
    case "upstream_rate_limited":
      return [
        "rate-limited (429 Too Many Requests)",
        "YouTube limits this address: wait a few minutes, or spread requests over more addresses with YOUTUBE_PROXIES.",
      ];
    case "po_token_required":
      return [
        "a proof-of-origin (PO) token is required",
        "Set YOUTUBE_POT_PROVIDER_URL to a PO token provider (bgutil-ytdlp-pot-provider).",
      ];
    case "upstream_timeout":
      return [
        "no answer in time",
        viaProxy
          ? "The proxy does not answer: check it, or correct YOUTUBE_PROXIES / OUTBOUND_PROXY."
          : "This machine has no working route to YouTube: check its network, or set YOUTUBE_PROXIES to a proxy that can reach it.",
      ];
    default:
      return [
        null,
        viaProxy
          ? "Check that the proxy in YOUTUBE_PROXIES / OUTBOUND_PROXY can reach YouTube."
          : "This machine has no route to YouTube: check its network, or set YOUTUBE_PROXIES to a proxy that can reach it.",
      ];
  }
}

export function judgeYtDlp(
  status: {
    version: string | null;
    jsRuntime: string | null;
    solver: string | null;
    problems: string[];
  } | null,
): SetupLine {
  if (!status) return { id: "ytdlp", ok: null, found: "not checked yet", fix: null };
  if (!status.version)
    return {
      id: "ytdlp",
      ok: false,
      found: "yt-dlp missing",
      fix: "Run scripts/install-yt-dlp.sh (needs python3), or set YTDLP_PATH to a yt-dlp binary.",
      // The other platforms' captions come through yt-dlp; YouTube's come from InnerTube first.
      cuts: ["links"],
    };
  const found = `yt-dlp ${status.version}, JavaScript runtime ${status.jsRuntime ?? "missing"}, challenge solver ${status.solver ?? "missing"}`;
  return status.problems.length === 0
    ? { id: "ytdlp", ok: true, found, fix: null }
    : { id: "ytdlp", ok: false, found, fix: status.problems.join("; ") };
}

export function judgeFfmpeg(version: string | null): SetupLine {
  return version
    ? { id: "ffmpeg", ok: true, found: version, fix: null }
    : {
        id: "ffmpeg",
        ok: false,
        found: "ffmpeg missing",
        fix: "Reinstall with `npm install` (ffmpeg comes from the @ffmpeg-installer package for this platform) or put ffmpeg on PATH.",
        cuts: ["files"],
      };
}

/**
 * The speech model: present, downloadable on first use, or neither, so the panel never says ✓ for files while
 * the model is missing and its host unreachable.
 */
export function judgeSpeechModel(input: {
  provider: "assemblyai" | "openai" | "local" | "off";
  model: string | null;
  reason: string | null;
  /** Local only: the model file is on disk. */
  present?: boolean;
  /** Local only: the model host, and how connecting to it went. */
  host?: string;
  reachable?: ConnectResult;
}): SetupLine {
  if (input.provider === "off")
    return {
      id: "speech_model",
      ok: false,
      found: `speech recognition off${input.reason ? `: ${input.reason}` : ""}`,
      fix: "Set ASR_PROVIDER=local (the default on supported machines), or ASSEMBLYAI_API_KEY / ASR_OPENAI_BASE_URL for a provider.",
      cuts: ["files"],
    };
  if (input.provider !== "local")
    return {
      id: "speech_model",
      ok: true,
      found: `${input.provider}${input.model ? ` (${input.model})` : ""}`,
      fix: null,
    };
  if (input.present) return { id: "speech_model", ok: true, found: `local model ${input.model} present`, fix: null };
  if (input.reachable?.ok)
    return {
      id: "speech_model",
      ok: true,
      found: `local model ${input.model} not here yet; ${input.host} answers, so it downloads on first use`,
      fix: null,
    };
  return {
    id: "speech_model",
    ok: false,
    found: `local model ${input.model} missing, and ${input.host ?? "its host"} cannot be reached (${input.reachable && !input.reachable.ok ? input.reachable.code : "not checked"})`,
    fix: "Download the model on a machine that can reach the host, copy it here and set ASR_LOCAL_MODEL_PATH to it (or point ASR_LOCAL_MODEL_BASE_URL at a mirror).",
    cuts: ["files"],
  };
}

/** A configured service (the outbound proxy) reached over TCP; ‒ when not configured. */
export function judgeService(
  id: "outbound_proxy",
  setting: string,
  address: string | null,
  result: ConnectResult | null,
): SetupLine {
  if (!address || !result) return { id, ok: null, found: `${setting} not set`, fix: null };
  if (result.ok) return { id, ok: true, found: `${address} connects`, fix: null };
  // Requests to platforms go out through it (YouTube's own check says whether YouTube is reached).
  return {
    id,
    ok: false,
    found: `${address}: ${result.code}`,
    fix: `Start it, or correct ${setting}.`,
    cuts: ["links"],
  };
}

/** One cheap read with Stripe's SDK (lib/health/probe-services.ts). */
export type StripeAnswer =
  | { ok: true }
  | { ok: false; kind: "bad_key" | "no_permission" | "unreachable" | "other"; detail: string };

/** Billing: ‒ when off; else whether Stripe takes the key (one real request), and the webhook secret. */
export function judgeStripe(
  input:
    | { configured: false }
    | { configured: true; apiBase: string | null; webhookSecret: boolean; answer: StripeAnswer },
): SetupLine {
  if (!input.configured) return { id: "stripe", ok: null, found: "billing off (no Stripe settings)", fix: null };
  const where = input.apiBase ?? "api.stripe.com";
  const { answer } = input;
  if (!answer.ok) {
    const fix =
      answer.kind === "bad_key"
        ? "Stripe does not accept STRIPE_SECRET_KEY: copy the secret key (sk_live_… or sk_test_…) from the Stripe Dashboard, Developers → API keys."
        : answer.kind === "no_permission"
          ? "STRIPE_SECRET_KEY is a restricted key that may not read prices: give it read and write access to Billing, or use the secret key."
          : answer.kind === "unreachable"
            ? input.apiBase
              ? "Nothing answers at STRIPE_API_BASE: start that server or correct the setting (unset, api.stripe.com is used)."
              : "This machine cannot reach api.stripe.com: open outbound HTTPS to it (or unset STRIPE_SECRET_KEY to turn billing off)."
            : "Stripe answered with an error: check STRIPE_SECRET_KEY and Stripe's status page.";
    const what = {
      bad_key: "key not accepted",
      no_permission: "key lacks permission",
      unreachable: "unreachable",
      other: "error",
    }[answer.kind];
    return { id: "stripe", ok: false, found: `billing on, ${where}: ${what} (${answer.detail})`, fix };
  }
  return input.webhookSecret
    ? { id: "stripe", ok: true, found: `billing on, ${where} accepts the key`, fix: null }
    : {
        id: "stripe",
        ok: false,
        found: `billing on, ${where} accepts the key, but STRIPE_WEBHOOK_SECRET unset`,
        fix: "Set STRIPE_WEBHOOK_SECRET to the signing secret of the /v1/webhooks/billing endpoint, or plans never reach users.",
      };
}

/** What the mail line says without SMTP_URL: the mail still written, and where. */
export const NO_MAIL_SERVER = "SMTP_URL not set: sign-in links, invitations and alert e-mails go to the server log";

/** nodemailer's verify() against SMTP_URL: ok, or its error code (EAUTH, ECONNECTION, ETIMEDOUT, EDNS, ETLS…). */
export type MailAnswer = { ok: true } | { ok: false; code: string; detail: string };

/** Mail: ‒ when SMTP_URL is unset (every mail goes to the server log); else whether the server lets us in. */
export function judgeMail(address: string | null, answer: MailAnswer | null): SetupLine {
  if (!address || !answer) return { id: "mail", ok: null, found: NO_MAIL_SERVER, fix: null };
  if (answer.ok) return { id: "mail", ok: true, found: `${address} accepts the connection and the login`, fix: null };
  const code = answer.code;
  const detail = /ENOTFOUND|EAI_AGAIN/.test(answer.detail) ? "EDNS" : code;
  const fix =
    code === "EAUTH"
      ? "The mail server refuses the user name or password: correct them in SMTP_URL (smtp://user:password@host:587)."
      : detail === "EDNS"
        ? "The host in SMTP_URL does not resolve: correct it, or give this machine a working DNS server."
        : code === "ETIMEDOUT"
          ? "No answer from SMTP_URL's host and port: check the port (587 for smtp://, 465 for smtps://) and that the firewall lets it out."
          : code === "ETLS" || /certificate|SSL|TLS/i.test(answer.detail)
            ? "The TLS handshake failed: use smtps:// for port 465 and smtp:// (STARTTLS) for 587, or trust the server's CA (NODE_EXTRA_CA_CERTS)."
            : code === "ECONNECTION" || /ECONNREFUSED/.test(answer.detail)
              ? "Nothing accepts connections there: start the mail server, or correct the host and port in SMTP_URL."
              : "The mail server did not complete the check: correct SMTP_URL.";
  return { id: "mail", ok: false, found: `${address}: ${answer.detail} (${code})`, fix };
}

/** The doctor's lines: "✓ database  PostgreSQL answers" / "✗ youtube  …\n    fix: …". */
export function formatSetupLines(lines: readonly SetupLine[]): string {
  const width = Math.max(...lines.map((line) => line.id.length));
  return lines
    .map((line) => {
      const mark = line.ok === null ? "‒" : line.ok ? "✓" : "✗";
      const head = `${mark} ${line.id.padEnd(width)}  ${line.found}`;
      return line.fix ? `${head}\n  ${" ".repeat(width)}  → ${line.fix}` : head;
    })
    .join("\n");
}

/** /health's summary (strings only): "ok", or the ids that fail (these for operators only, lib/health/check-health.ts). */
export function setupHealthFields(lines: readonly SetupLine[] | null): Record<string, string> {
  if (!lines) return { setup: "checking" };
  const failing = lines.filter((line) => line.ok === false).map((line) => line.id);
  return failing.length === 0 ? { setup: "ok" } : { setup: "degraded", setup_failing: failing.join(",") };
}

/**
 * Every line for an operator's /health, strings only: `setup_<id>` "ok: …", "failing: …" or "not configured: …"
 * with what was found, and `setup_<id>_fix` with the sentence that fixes a failing one.
 */
export function setupDetailFields(lines: readonly SetupLine[] | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of lines ?? []) {
    fields[`setup_${line.id}`] = `${line.ok === null ? "not configured" : line.ok ? "ok" : "failing"}: ${line.found}`;
    if (line.fix) fields[`setup_${line.id}_fix`] = line.fix;
  }
  return fields;
}
