// One setup check, everywhere: `npm run doctor` prints it, /health carries its summary. Each line is ✓ or ✗
// with the one sentence that fixes it (or ‒ when it does not apply: Stripe and mail unconfigured). What is
// measured (probes) is kept apart from what it means (judge*), so the sentences are tested without a network.

export interface SetupLine {
  id: "database" | "youtube" | "ytdlp" | "ffmpeg" | "speech_model" | "outbound_proxy" | "stripe" | "mail";
  /** true ✓, false ✗, null ‒ (not configured, nothing to check). */
  ok: boolean | null;
  /** What was found, for a person: "PostgreSQL answers", "www.youtube.com: DNS failed (ENOTFOUND)". */
  found: string;
  /** The one sentence that fixes it; null when it is fine. */
  fix: string | null;
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
      };
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA"]);

/** Reaching YouTube (or the proxy in front of it): each cause its own fix. */
export function judgeYoutube(host: string, viaProxy: string | null, result: ConnectResult): SetupLine {
  const where = viaProxy ? `${host} through the proxy ${viaProxy}` : host;
  if (result.ok) return { id: "youtube", ok: true, found: `${where}: connects`, fix: null };
  const found = `${where}: ${result.code}`;
  if (DNS_CODES.has(result.code))
    return {
      id: "youtube",
      ok: false,
      found: `${found} (name resolution failed)`,
      fix: "Give this machine a working DNS server and a route to the internet; links to platforms cannot work until then.",
    };
  if (result.code === "ECONNREFUSED")
    return {
      id: "youtube",
      ok: false,
      found: `${found} (connection refused)`,
      fix: viaProxy
        ? "Start the proxy or correct its address in YOUTUBE_PROXIES / OUTBOUND_PROXY."
        : "A firewall refuses the connection: open outbound HTTPS, or set YOUTUBE_PROXIES to a proxy that can reach YouTube.",
    };
  return {
    id: "youtube",
    ok: false,
    found,
    fix: "This machine has no route to YouTube: check its network, or set YOUTUBE_PROXIES to a proxy that can reach it.",
  };
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
      };
}

/**
 * The speech model: present, downloadable on first use, or neither (the panel said ✓ for files while the model
 * was missing and its host unreachable: issue 37).
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
  };
}

/** A configured service (the outbound proxy, the SMTP server) reached over TCP; ‒ when not configured. */
export function judgeService(
  id: "outbound_proxy" | "mail",
  setting: string,
  address: string | null,
  result: ConnectResult | null,
): SetupLine {
  if (!address || !result) return { id, ok: null, found: `${setting} not set`, fix: null };
  if (result.ok) return { id, ok: true, found: `${address} connects`, fix: null };
  return { id, ok: false, found: `${address}: ${result.code}`, fix: `Start it, or correct ${setting}.` };
}

export function judgeStripe(configured: boolean, webhookSecret: boolean): SetupLine {
  if (!configured) return { id: "stripe", ok: null, found: "billing off (no Stripe settings)", fix: null };
  return webhookSecret
    ? { id: "stripe", ok: true, found: "billing on", fix: null }
    : {
        id: "stripe",
        ok: false,
        found: "billing on, but STRIPE_WEBHOOK_SECRET unset",
        fix: "Set STRIPE_WEBHOOK_SECRET to the signing secret of the /v1/webhooks/billing endpoint, or plans never reach users.",
      };
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

/** /health's summary (strings only): "ok", or the ids that fail. */
export function setupHealthFields(lines: readonly SetupLine[] | null): Record<string, string> {
  if (!lines) return { setup: "checking" };
  const failing = lines.filter((line) => line.ok === false).map((line) => line.id);
  return failing.length === 0 ? { setup: "ok" } : { setup: "degraded", setup_failing: failing.join(",") };
}
