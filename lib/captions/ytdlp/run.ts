/**
 * Runs the yt-dlp binary: no shell, arguments as an array, the URL after `--`, a fixed set of safety
 * flags, a deadline that kills the whole process group, a cap on stdout, and yt-dlp's error lines mapped
 * to SourceError codes.
 *
 * Binary: the `binary` option, else `.venv/bin/yt-dlp` under process.cwd() (scripts/install-yt-dlp.sh
 * puts it there), else `yt-dlp` on PATH.
 */
import { toolEnvironment } from "@/lib/env";
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

import { SourceError, type SourceErrorCode } from "@/lib/captions/types";

/**
 * Always passed, before the caller's arguments:
 * - `--ignore-config`: no system/user config files;
 * - `--no-plugin-dirs`: no plugins from the default plugin directories;
 * - `--use-extractors default,-generic`: only the site extractors. The generic extractor would fetch any
 *   URL and follow whatever a page embeds, which the outbound guard cannot vet;
 * - `--no-playlist`: one item, never the channel/playlist around it;
 * - `--no-update`: no update check, and no "older than 90 days" nag on stderr;
 * - `--no-cache-dir`: nothing written under $HOME;
 * - `--color never`: plain stderr for the error mapping.
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
];

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_STDOUT_BYTES = 32 * 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;

/** Environment variables handed to yt-dlp: no secrets of ours, no proxy but the one we pass. */
export interface RunYtDlpOptions {
  /** The item's URL, passed after `--`. Omit for runs that take their input elsewhere (--load-info-json). */
  url?: string;
  /** Path of the yt-dlp executable. Default: see resolveYtDlpBinary. */
  binary?: string;
  /** Forward proxy for everything yt-dlp fetches (`--proxy`). */
  proxyUrl?: string;
  /** Kill the process group after this long. Default 60 s. */
  timeoutMs?: number;
  /** Kill the process when stdout grows past this. Default 32 MiB. */
  maxStdoutBytes?: number;
  cwd?: string;
  /** Extra environment variables (on top of the short passthrough list). */
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

/** The complete argument vector: safety flags, proxy, the caller's arguments, then `--` and the URL. */
export function buildArgs(args: readonly string[], opts: Pick<RunYtDlpOptions, "url" | "proxyUrl"> = {}): string[] {
  const out = [...BASE_ARGS];
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
  {
    code: "unsupported_source",
    message: "That link is not something we can get a transcript from.",
    pattern: /Unsupported URL|No suitable extractor found|is not a valid URL|No video could be found in this tweet|There is no video in this post|No video formats found|Media #\d+ is not a video|This account does not have any videos|not a video\b|\bis not a video post\b/i,
  },
  {
    code: "upstream_failed",
    message: "The platform refused to serve this video to us right now. Try again later.",
    pattern: /confirm you(?:'|’)re not a bot|Your IP address is blocked|HTTP Error 429|Too Many Requests|rate[- ]limit|blocked due to its TLS fingerprint|HTTP Error 403/i,
  },
  {
    code: "video_unavailable",
    message: "That video is private.",
    pattern: /Private video|This video is private|private (?:post|account|video)|You do not have permission to view this post|not authorized to view this protected tweet|only available for registered users who follow/i,
  },
  {
    code: "age_restricted",
    message: "That video needs a signed-in account (age-restricted or members only).",
    pattern: /Sign in to confirm your age|age[- ]restricted|inappropriate for some users|NSFW tweet requires authentication|only available for registered users|requires? (?:a )?(?:login|log in|authentication)|log ?in (?:to|for) (?:access|view|continue)|login required|may not be comfortable for some audiences|You must log in|protected by a password|Wrong (?:video )?password|members[- ]only|Join this channel/i,
  },
  {
    code: "video_unavailable",
    message: "That video is unavailable: it may have been removed, or the link is wrong.",
    pattern: /Video unavailable|This video (?:is|has been) (?:unavailable|removed|deleted)|no longer (?:available|exists)|does not exist|has been removed|HTTP Error 404|HTTP Error 410|Video not available|Requested tweet is unavailable|is unavailable\b|content isn(?:'|’)t available|This content is unreachable|not available (?:from|in) your (?:location|country)|geo[- ]?restrict|Broadcast no longer exists|This livestream has ended|not found\b/i,
  },
];

/** The ERROR lines of yt-dlp's stderr, without the "ERROR: [extractor] id: " prefix. */
export function errorLines(stderr: string): string[] {
  return stderr
    .split(/\r?\n/)
    .filter((l) => l.startsWith("ERROR:"))
    .map((l) => l.replace(/^ERROR:\s*/, "").replace(/^\[[^\]]+\]\s*(?:[^\s:]+:\s+)?/, "").trim());
}

/**
 * Maps yt-dlp's stderr to a SourceError: the last ERROR line decides (earlier ones are usually retries),
 * falling back to any line when there is none. Unknown failures are upstream_failed.
 */
export function mapYtDlpError(stderr: string): YtDlpError {
  const errors = errorLines(stderr);
  const detail = errors.length > 0 ? (errors[errors.length - 1] as string) : stderr.trim().split(/\r?\n/).slice(-1)[0] ?? "";
  const candidates = errors.length > 0 ? [...errors].reverse() : [stderr];
  for (const text of candidates) {
    for (const rule of RULES) if (rule.pattern.test(text)) return new YtDlpError(rule.code, rule.message, detail);
  }
  return new YtDlpError("upstream_failed", "The platform could not be reached, or it answered with something unexpected.", detail);
}

// ---------------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------------

function childEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env = toolEnvironment();
  env.PYTHONIOENCODING = "utf-8";
  env.PYTHONUTF8 = "1";
  env.PYTHONDONTWRITEBYTECODE = "1";
  return { ...env, ...extra };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Runs yt-dlp with BASE_ARGS, `--proxy` when configured, `args`, and `-- url`. Resolves with stdout and
 * stderr when it exits 0; otherwise rejects with a YtDlpError (mapped from stderr), or upstream_failed
 * for a timeout, an oversized stdout, or a binary that cannot be started.
 */
export function runYtDlp(args: readonly string[], opts: RunYtDlpOptions = {}): Promise<RunYtDlpResult> {
  const binary = resolveYtDlpBinary(opts.binary, opts.cwd);
  const fullArgs = buildArgs(args, opts);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxStdout = opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;

  return new Promise<RunYtDlpResult>((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    const child = spawn(binary, fullArgs, {
      cwd: opts.cwd,
      // Only these variables: the server's secrets stay out of yt-dlp, and so do *_PROXY settings.
      env: childEnv(opts.env) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
      // Its own process group, so a timeout takes down yt-dlp and anything it started (ffmpeg…).
      detached: true,
      windowsHide: true,
    });

    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let failure: Error | null = null;
    let settled = false;

    const fail = (err: Error) => {
      if (failure === null) failure = err;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => {
      fail(new YtDlpError("upstream_failed", "The platform took too long to answer.", `yt-dlp timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => fail(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) {
        fail(new YtDlpError("upstream_failed", "The platform answered with more data than we accept.", `yt-dlp printed more than ${maxStdout} bytes`));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      // Keep the tail: the ERROR line that explains the exit comes last.
      if (stderr.length > MAX_STDERR_CHARS * 2) stderr = stderr.slice(-MAX_STDERR_CHARS);
    });

    const finish = (code: number | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (spawnError) {
        const missing = (spawnError as NodeJS.ErrnoException).code === "ENOENT";
        reject(
          new YtDlpError(
            "upstream_failed",
            "Captions for this platform are not available on this server right now.",
            missing ? `yt-dlp not found (${binary}); run scripts/install-yt-dlp.sh` : `yt-dlp could not be started: ${spawnError.message}`,
          ),
        );
        return;
      }
      if (failure) {
        reject(failure);
        return;
      }
      if (code !== 0) {
        reject(mapYtDlpError(stderr));
        return;
      }
      resolve({ stdout: Buffer.concat(stdout).toString("utf8"), stderr, args: fullArgs });
    };

    child.once("error", (err) => {
      killGroup(child.pid);
      finish(null, err);
    });
    // "close" (not "exit"): stdout and stderr are complete by then.
    child.once("close", (code) => finish(code));
  });
}
