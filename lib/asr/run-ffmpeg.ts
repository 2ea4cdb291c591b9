// ffmpeg as the recognisers' audio steps run it (decoding for the speech detector, encoding the speech-only
// audio): through the one process runner, with its failures said as AsrErrors.
import { runTool, ToolStartError, type RunToolResult } from "@/lib/process/run";

import { AsrError } from "./types";

export interface FfmpegRun {
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * What an ffmpeg that could not be started is: "unavailable" whatever kept it from starting, or
   * "unavailable_when_missing" (not installed; any other start failure is asr_failed).
   */
  notStarted: "unavailable" | "unavailable_when_missing";
}

/** Runs `command` with `args`; resolves with its result whatever its exit code, rejects when it cannot start. */
export async function runFfmpeg(command: string, args: string[], run: FfmpegRun): Promise<RunToolResult> {
  try {
    return await runTool(command, args, { timeoutMs: run.timeoutMs, signal: run.signal, maxStdoutBytes: 64 * 1024 });
  } catch (error) {
    if (error instanceof ToolStartError) {
      const missing = run.notStarted === "unavailable" || error.errno === "ENOENT";
      throw new AsrError(
        missing ? "asr_unavailable" : "asr_failed",
        `${command} could not be started: ${error.message}`,
        {
          retryable: false,
          cause: error,
        },
      );
    }
    throw error; // the abort reason
  }
}

/** A run that did not succeed, as `<command> could not <doing>: <the end of its stderr>` (a timeout may pass on retry). */
export function ffmpegFailed(command: string, doing: string, result: RunToolResult): AsrError {
  return new AsrError(
    "asr_failed",
    `${command} could not ${doing}: ${result.stderrTail.split("\n").slice(-2).join(" ").slice(0, 300) || `exit ${result.code}`}`,
    { retryable: result.failure === "timeout" },
  );
}
