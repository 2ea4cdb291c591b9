/**
 * The two tool steps of chunked recognition: the duration (the one ffprobe wrapper, lib/media/probe.ts)
 * and cutting a chunk (ffmpeg through the one process runner, lib/process/run.ts: minimal environment,
 * deadline, output cap). Errors are AsrErrors (or the caller's abort reason).
 */
import path from "node:path";

import { isMediaError } from "@/lib/media/errors";
import { probeMedia } from "@/lib/media/probe";
import { FIRST_AUDIO_ONLY_ARGS, fileUrl, INPUT_GUARD_ARGS, QUIET_OVERWRITE_ARGS } from "@/lib/media/tools";
import { runTool, ToolStartError } from "@/lib/process/run";

import { AsrError, throwIfAborted } from "./types";

export interface FfmpegPaths {
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** Deadline for cutting one chunk (a chunk is minutes of audio; cutting it takes seconds). */
export const CUT_TIMEOUT_MS = 10 * 60_000;

/** Duration of an audio file in seconds, from its container (ffprobe). */
export async function probeDuration(file: string, opts: FfmpegPaths & { signal?: AbortSignal } = {}): Promise<number> {
  throwIfAborted(opts.signal);
  let seconds: number;
  try {
    seconds = (await probeMedia(file, { ffprobePath: opts.ffprobePath, signal: opts.signal })).durationSeconds;
  } catch (error) {
    if (!isMediaError(error)) throw error; // the abort reason
    const missing = error.cause instanceof ToolStartError && error.cause.errno === "ENOENT";
    throw new AsrError(
      missing ? "asr_unavailable" : "asr_failed",
      missing ? "ffprobe is not installed" : `ffprobe failed: ${error.detail ?? error.message}`,
      {
        retryable: false,
        cause: error,
      },
    );
  }
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new AsrError("asr_failed", `ffprobe found no duration in ${file}`, { retryable: false });
  }
  return seconds;
}

/**
 * Writes `length` seconds of `input` from `start` to `output`: re-encoded to 16 kHz mono MP3
 * (`codec: "mp3"`: the chunk starts exactly at `start`, whatever the input), or the audio packets copied
 * as they are (`codec: "copy"`, the output's extension must suit the codec; starts at a packet boundary,
 * and container quirks such as encoder delay can shift it by a few tens of milliseconds). No shell; only
 * local media files may be read (INPUT_GUARD_ARGS). Paths are absolute, so ffmpeg never reads one as an
 * option ("-x") or a protocol ("name:").
 */
export async function cutAudio(
  input: string,
  output: string,
  start: number,
  length: number,
  opts: FfmpegPaths & { signal?: AbortSignal; codec: "copy" | "mp3"; mp3Bitrate?: string; timeoutMs?: number },
): Promise<void> {
  throwIfAborted(opts.signal);
  const command = opts.ffmpegPath ?? "ffmpeg";
  const codecArgs =
    opts.codec === "mp3"
      ? ["-c:a", "libmp3lame", "-ac", "1", "-ar", "16000", "-b:a", opts.mp3Bitrate ?? "64k"]
      : // A copied MP3 chunk that runs to the end of the file otherwise gets a LAME header whose gapless
        // info makes decoders drop its first ~0.2 s, shifting every word in it.
        ["-c:a", "copy", ...(path.extname(output).toLowerCase() === ".mp3" ? ["-write_xing", "0"] : [])];
  const args = [
    ...QUIET_OVERWRITE_ARGS,
    ...INPUT_GUARD_ARGS,
    "-ss",
    start.toFixed(3),
    "-t",
    length.toFixed(3),
    "-i",
    fileUrl(input),
    ...FIRST_AUDIO_ONLY_ARGS,
    ...codecArgs,
    path.resolve(output),
  ];
  let result;
  try {
    result = await runTool(command, args, {
      timeoutMs: opts.timeoutMs ?? CUT_TIMEOUT_MS,
      signal: opts.signal,
      maxStdoutBytes: 64 * 1024,
    });
  } catch (error) {
    if (error instanceof ToolStartError) {
      throw new AsrError(
        error.errno === "ENOENT" ? "asr_unavailable" : "asr_failed",
        error.errno === "ENOENT" ? `${command} is not installed` : error.message,
        {
          retryable: false,
          cause: error,
        },
      );
    }
    throw error; // the abort reason
  }
  if (result.failure === "timeout")
    throw new AsrError("asr_failed", `${command} took longer than ${opts.timeoutMs ?? CUT_TIMEOUT_MS} ms`, {
      retryable: true,
    });
  if (result.failure === "stdout_too_large")
    throw new AsrError("asr_failed", `${command} printed more than expected`, { retryable: false });
  if (result.code !== 0) {
    const detail = result.stderrTail.split("\n").slice(-3).join(" ").slice(0, 500) || `exit ${result.code}`;
    throw new AsrError("asr_failed", `${command} failed: ${detail}`, { retryable: false });
  }
}
