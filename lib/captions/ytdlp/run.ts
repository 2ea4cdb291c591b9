/**
 * Runs the yt-dlp binary through the one process runner (lib/process/run.ts): no shell, arguments as an
 * array, the URL after `--`, a fixed set of safety flags, every connection through the outbound guard's
 * forward proxy, a deadline that kills the whole process group, a cap on stdout, and yt-dlp's error lines
 * mapped to SourceError codes.
 *
 * Binary: the `binary` option, else `.venv/bin/yt-dlp` under process.cwd() (scripts/install-yt-dlp.sh
 * puts it there), else `yt-dlp` on PATH.
 */
import { accessSync, constants } from "node:fs";
import path from "node:path";

import { SourceError, type SourceErrorCode } from "@/lib/captions/types";
import { outbound as defaultOutbound, type Outbound } from "@/lib/http/outbound";
import { runTool, ToolStartError } from "@/lib/process/run";

import { denoBinary, denoEnv, jsRuntimeArgs } from "./js-runtime";

/**
 * Always passed, before the caller's arguments:
 * - `--ignore-config`: no system/user config files;
 * - `--no-plugin-dirs`: no plugins from the default plugin directories;
 * - `--use-extractors default,-generic`: only the site extractors. The generic extractor would fetch any
 *   URL and follow whatever a page embeds, which the outbound guard cannot vet;
 * - `--no-playlist`: one item, never the channel/playlist around it;
 * - `--no-update`: no update check, and no "older than 90 days" nag on stderr;
 * - `--no-cache-dir`: nothing written under $HOME;
 * - `--color never`: plain stderr for the error mapping;
 * - `--no-remote-components`: yt-dlp never fetches the YouTube challenge solver's code itself (it comes
 *   from the yt-dlp-ejs package or deno's local cache, ./js-runtime.ts).
 */
export const BASE_ARGS: readonly string[] = [
  "--ignore-config",
  "--no-plugin-dirs",
  "--use-extractors",
  "default,-generic",
  "--no-playlist",
  "--no-update",
  "--no-cache-dir",
  "--color",
  "never",
  "--no-remote-components",
];

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_STDOUT_BYTES = 32 * 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;

export interface RunYtDlpOptions {
  /** The item's URL, passed after `--`. Omit for runs that take their input elsewhere (--load-info-json). */
  url?: string;
  /** Path of the yt-dlp executable. Default: see resolveYtDlpBinary. */
  binary?: string;
  /**
   * Whose guard yt-dlp's connections pass: `--proxy` is this instance's guarded forward proxy (chained to
   * its own upstream proxy, if any). Default: the strict default instance (nothing internal).
   */
  outbound?: Pick<Outbound, "toolProxyUrl">;
  /** Kill the process group after this long. Default 60 s. */
  timeoutMs?: number;
  /** Kill the process when stdout grows past this. Default 32 MiB. */
  maxStdoutBytes?: number;
  cwd?: string;
  /** Extra environment variables (on top of the runner's minimal environment). */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RunYtDlpResult {
  stdout: string;
  stderr: string;
  /** The full argument list yt-dlp was started with (for logs). */
  args: string[];
}

/** A SourceError carrying yt-dlp's own error line, for logs (`message` is ours and safe to show). */
export class YtDlpError extends SourceError {
  constructor(
    code: SourceErrorCode,
    message: string,
    readonly detail: string,
  ) {
    super(code, message);
    this.name = "YtDlpError";
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The binary runYtDlp will start: explicit > <cwd>/.venv/bin/yt-dlp > "yt-dlp" (PATH lookup). */
export function resolveYtDlpBinary(explicit?: string, cwd: string = process.cwd()): string {
  if (explicit) return explicit;
  const venv = path.join(cwd, ".venv", "bin", "yt-dlp");
  if (isExecutable(venv)) return venv;
  return "yt-dlp";
}

/**
 * The complete argument vector: safety flags, the JavaScript runtime (`deno`: its path, or null for none;
 * left out, yt-dlp's own default), proxy, the caller's arguments, then `--` and the URL.
 */
export function buildArgs(
  args: readonly string[],
  opts: { url?: string; proxyUrl?: string; deno?: string | null } = {},
): string[] {
  const out = [...BASE_ARGS];
  if (opts.deno !== undefined) out.push(...jsRuntimeArgs(opts.deno));
  if (opts.proxyUrl) out.push("--proxy", opts.proxyUrl);
  out.push(...args);
  if (opts.url !== undefined) out.push("--", opts.url);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Error mapping
// ---------------------------------------------------------------------------------------------------

interface Rule {
  code: SourceErrorCode;
  message: string;
  pattern: RegExp;
}

/** First match wins: order matters (a private video's message also says "Sign in"). */
const RULES: readonly Rule[] = [
  // Network causes first (the forward proxy names them in its status line: forward-proxy.ts), each with what
  // fixes it: none goes away by trying again in a moment.
  {
    code: "upstream_dns_failed",
    message:
      "This server could not look up the platform's address (DNS failed): it has no working DNS or no internet connection. Its operator has to give it one.",
    pattern:
      /Destination name could not be resolved|Name or service not known|Temporary failure in name resolution|nodename nor servname|getaddrinfo failed/i,
  },
  {
    code: "upstream_refused",
    message:
      "The platform refused this server's connection, or the proxy it goes through (OUTBOUND_PROXY) is down. Its operator can check that proxy or route requests through one.",
    pattern: /Destination refused the connection|Connection refused/i,
  },
  {
    code: "upstream_tls_failed",
    message:
      "This server could not make a secure connection to the platform: the certificate was not accepted. Behind an intercepting proxy its operator must trust that proxy's CA (NODE_EXTRA_CA_CERTS).",
    pattern: /CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLCertVerificationError/i,
  },
  {
    // Our own forward proxy refused a destination (forward-proxy.ts REFUSED_REASON), e.g. a format or
    // subtitle URL, or a redirect, pointing at an internal address. Before the generic "HTTP Error 403".
    code: "upstream_failed",
    message: "The platform pointed us to an address we do not connect to.",
    pattern: /not allowed by the outbound guard/i,
  },
  {
    code: "unsupported_source",
    message: "That link is not something we can get a transcript from.",
    pattern:
      /Unsupported URL|No suitable extractor found|is not a valid URL|No video could be found in this tweet|There is no video in this post|No video formats found|Media #\d+ is not a video|This account does not have any videos|not a video\b|\bis not a video post\b/i,
  },
  {
    code: "upstream_blocked",
    message:
      "The platform asked this server to prove it is not a bot (a bot check), or blocks its address. It often passes in a while; its operator can route requests through other addresses (YOUTUBE_PROXIES) or add a PO token provider (YOUTUBE_POT_PROVIDER_URL).",
    pattern: /confirm you(?:'|’)re not a bot|Your IP address is blocked/i,
  },
  {
    code: "upstream_rate_limited",
    message:
      "The platform is rate-limiting this server (429 Too Many Requests). Try again in a few minutes; a busy server can spread its requests over more addresses (YOUTUBE_PROXIES).",
    pattern: /HTTP Error 429|Too Many Requests|rate[- ]limit/i,
  },
  {
    code: "upstream_failed",
    message: "The platform refused to serve this video to us right now. Try again later.",
    pattern: /blocked due to its TLS fingerprint|HTTP Error 403/i,
  },
  {
    code: "video_unavailable",
    message: "That video is private.",
    pattern:
      /Private video|This video is private|private (?:post|account|video)|You do not have permission to view this post|not authorized to view this protected tweet|only available for registered users who follow/i,
  },
  {
    code: "age_restricted",
    message: "That video needs a signed-in account (age-restricted or members only).",
    pattern:
      /Sign in to confirm your age|age[- ]restricted|inappropriate for some users|NSFW tweet requires authentication|only available for registered users|requires? (?:a )?(?:login|log in|authentication)|log ?in (?:to|for) (?:access|view|continue)|login required|may not be comfortable for some audiences|You must log in|protected by a password|Wrong (?:video )?password|members[- ]only|Join this channel/i,
  },
  {
    code: "video_unavailable",
    message: "That video is unavailable: it may have been removed, or the link is wrong.",
    pattern:
      /Video unavailable|This video (?:is|has been) (?:unavailable|removed|deleted)|no longer (?:available|exists)|does not exist|has been removed|HTTP Error 404|HTTP Error 410|Video not available|Requested tweet is unavailable|is unavailable\b|content isn(?:'|’)t available|This content is unreachable|not available (?:from|in) your (?:location|country)|geo[- ]?restrict|Broadcast no longer exists|This livestream has ended|not found\b/i,
  },
];

/** The ERROR lines of yt-dlp's stderr, without the "ERROR: [extractor] id: " prefix. */
export function errorLines(stderr: string): string[] {
  return stderr
    .split(/\r?\n/)
    .filter((l) => l.startsWith("ERROR:"))
    .map((l) =>
      l
        .replace(/^ERROR:\s*/, "")
        .replace(/^\[[^\]]+\]\s*(?:[^\s:]+:\s+)?/, "")
        .trim(),
    );
}

/**
 * Maps yt-dlp's stderr to a SourceError: the last ERROR line decides (earlier ones are usually retries),
 * falling back to any line when there is none. Unknown failures are upstream_failed.
 */
export function mapYtDlpError(stderr: string): YtDlpError {
  const errors = errorLines(stderr);
  const detail =
    errors.length > 0 ? (errors[errors.length - 1] as string) : (stderr.trim().split(/\r?\n/).slice(-1)[0] ?? "");
  const candidates = errors.length > 0 ? [...errors].reverse() : [stderr];
  for (const text of candidates) {
    for (const rule of RULES) if (rule.pattern.test(text)) return new YtDlpError(rule.code, rule.message, detail);
  }
  return new YtDlpError(
    "upstream_failed",
    "The platform could not be reached, or it answered with something unexpected.",
    detail,
  );
}

// ---------------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------------

/** Python settings yt-dlp needs on top of the runner's minimal environment. */
const PYTHON_ENV: Readonly<Record<string, string>> = {
  PYTHONIOENCODING: "utf-8",
  PYTHONUTF8: "1",
  PYTHONDONTWRITEBYTECODE: "1",
};

/**
 * Runs yt-dlp (through lib/process/run.ts: minimal environment, own process group, deadline, stdout cap)
 * with BASE_ARGS, the npm-installed deno as its only JavaScript runtime (./js-runtime.ts),
 * `--proxy <the guard proxy>`, `args`, and `-- url`. Every connection yt-dlp makes goes
 * through `outbound`'s guarded forward proxy (lib/http/outbound/forward-proxy.ts), which refuses what the
 * app's own fetches would refuse. Resolves with stdout and stderr when it exits 0; otherwise rejects with
 * a YtDlpError (mapped from stderr), or upstream_failed for a timeout, an oversized stdout, or a binary
 * that cannot be started.
 */
export async function runYtDlp(args: readonly string[], opts: RunYtDlpOptions = {}): Promise<RunYtDlpResult> {
  opts.signal?.throwIfAborted();
  const binary = resolveYtDlpBinary(opts.binary, opts.cwd);
  const proxyUrl = await (opts.outbound ?? defaultOutbound).toolProxyUrl();
  const fullArgs = buildArgs(args, { url: opts.url, proxyUrl, deno: denoBinary() });
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxStdout = opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;

  let result;
  try {
    result = await runTool(binary, fullArgs, {
      timeoutMs,
      signal: opts.signal,
      maxStdoutBytes: maxStdout,
      stderrTailChars: MAX_STDERR_CHARS,
      cwd: opts.cwd,
      env: { ...PYTHON_ENV, ...denoEnv(), ...opts.env },
    });
  } catch (err) {
    if (err instanceof ToolStartError) {
      throw new YtDlpError(
        "upstream_failed",
        "Captions for this platform are not available on this server right now.",
        err.errno === "ENOENT"
          ? `yt-dlp not found (${binary}); run scripts/install-yt-dlp.sh`
          : `yt-dlp could not be started: ${err.message}`,
      );
    }
    throw err; // the caller's abort reason
  }
  if (result.failure === "timeout") {
    throw new YtDlpError(
      "upstream_failed",
      "The platform took too long to answer.",
      `yt-dlp timed out after ${timeoutMs} ms`,
    );
  }
  if (result.failure === "stdout_too_large") {
    throw new YtDlpError(
      "upstream_failed",
      "The platform answered with more data than we accept.",
      `yt-dlp printed more than ${maxStdout} bytes`,
    );
  }
  if (result.code !== 0) throw mapYtDlpError(result.stderrTail);
  return { stdout: result.stdout, stderr: result.stderrTail, args: fullArgs };
}
