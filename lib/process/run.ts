/**
 * The one way to start a child process (ffmpeg, ffprobe, yt-dlp): no shell, arguments as an array, a
 * minimal environment (lib/env.ts `toolEnvironment()`: paths, locale, certificates; never a secret or a
 * proxy setting of ours; its PATH ends with the npm-installed ffmpeg/ffprobe, ./media-tools.ts), its own
 * process group so a deadline or an abort kills it AND whatever it started, a cap on collected stdout,
 * and only the tail of stderr kept (ffmpeg can print a line per damaged frame for hours).
 *
 *   const r = await runTool("ffprobe", args, { timeoutMs: 60_000, signal });
 *   if (r.failure === "timeout") ...; if (r.code !== 0) ... r.stderrTail ...
 *
 * Callers map the outcome to their own error codes (MediaError, AsrError, YtDlpError).
 */
import { spawn } from "node:child_process";

import { toolEnvironment } from "@/lib/env";

import { toolSearchPath } from "./media-tools";

export const DEFAULT_STDERR_TAIL_CHARS = 8 * 1024;
export const DEFAULT_MAX_STDOUT_BYTES = 4 * 1024 * 1024;

export interface RunToolOptions {
  /** Kill the process group after this long (result `failure: "timeout"`). Required: nothing runs forever. */
  timeoutMs: number;
  /** Kill the process group and reject with the signal's reason. */
  signal?: AbortSignal;
  /** Collect stdout up to this many bytes, then kill (result `failure: "stdout_too_large"`). Default 4 MiB. */
  maxStdoutBytes?: number;
  /** Stream stdout line by line instead of collecting it. */
  onStdoutLine?: (line: string) => void;
  /** How much of the end of stderr to keep. Default 8 KiB. */
  stderrTailChars?: number;
  cwd?: string;
  /** Variables on top of the minimal environment (the caller's own, e.g. PYTHONUTF8). */
  env?: Record<string, string>;
  /** Called with the child's pid once it is started. */
  onStart?: (pid: number) => void;
}

export interface RunToolResult {
  /** Exit code, null when killed. */
  code: number | null;
  /** Collected stdout (empty with onStdoutLine). */
  stdout: string;
  /** The last `stderrTailChars` characters of stderr. */
  stderrTail: string;
  /** Why we killed it, if we did. */
  failure: "timeout" | "stdout_too_large" | null;
}

/** Thrown when the binary cannot be started at all (ENOENT, EACCES). */
export class ToolStartError extends Error {
  override readonly name = "ToolStartError";
  constructor(
    readonly binary: string,
    readonly errno: string,
    options: { cause: unknown },
  ) {
    super(errno === "ENOENT" ? `${binary} not found` : `${binary} could not be started (${errno})`, options);
  }
}

/** SIGKILL to the whole process group (the child leads it: `detached`), else to the child alone. */
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
 * Starts `binary args…`, resolves when it has exited and its pipes are closed (whatever the exit code),
 * rejects with the signal's reason when aborted (after the process group is killed) and with
 * ToolStartError when it cannot be started.
 */
export function runTool(binary: string, args: readonly string[], opts: RunToolOptions): Promise<RunToolResult> {
  const maxStdout = opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;
  const tailChars = opts.stderrTailChars ?? DEFAULT_STDERR_TAIL_CHARS;

  return new Promise<RunToolResult>((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    // spawn looks `binary` up on this PATH too: system tools first, then the bundled ffmpeg/ffprobe.
    const env: Record<string, string> = { ...toolEnvironment(), PATH: toolSearchPath(), ...opts.env };
    const child = spawn(binary, [...args], {
      cwd: opts.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
      // Its own process group, so a kill takes down the tool and anything it started (yt-dlp → ffmpeg).
      detached: true,
      windowsHide: true,
    });

    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let partial = "";
    let stderr = "";
    let failure: RunToolResult["failure"] = null;
    let aborted = false;
    let settled = false;

    const kill = () => killGroup(child.pid);
    const timer = setTimeout(() => {
      failure ??= "timeout";
      kill();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (child.pid !== undefined) opts.onStart?.(child.pid);
    // onStart may have aborted it already.
    if (opts.signal?.aborted) onAbort();

    if (opts.onStdoutLine) {
      const onLine = opts.onStdoutLine;
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        partial += chunk;
        let nl: number;
        while ((nl = partial.indexOf("\n")) !== -1) {
          onLine(partial.slice(0, nl).replace(/\r$/, ""));
          partial = partial.slice(nl + 1);
        }
        // A line without an end is not something these tools print; do not let it grow.
        if (partial.length > 64 * 1024) partial = "";
      });
    } else {
      child.stdout.on("data", (chunk: Buffer) => {
        if (failure !== null) return;
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxStdout) {
          failure = "stdout_too_large";
          stdout.length = 0;
          kill();
          return;
        }
        stdout.push(chunk);
      });
    }
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.length > tailChars * 2) stderr = stderr.slice(-tailChars);
    });

    const finish = (code: number | null, startError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (startError) {
        const errno = (startError as NodeJS.ErrnoException).code ?? "unknown";
        reject(new ToolStartError(binary, errno, { cause: startError }));
        return;
      }
      if (aborted && opts.signal) {
        reject(opts.signal.reason);
        return;
      }
      if (partial !== "" && opts.onStdoutLine) opts.onStdoutLine(partial);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderrTail: stderr.slice(-tailChars).trim(),
        failure,
      });
    };
    child.once("error", (err) => {
      kill();
      finish(null, err);
    });
    // "close" (not "exit"): stdout and stderr are complete by then.
    child.once("close", (code) => finish(code));
  });
}
