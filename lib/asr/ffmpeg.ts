import { execFile } from "node:child_process";
import path from "node:path";
import { AsrError, throwIfAborted } from "./types";

export interface FfmpegPaths {
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** Output of a finished child process; rejects with an AsrError (or the abort reason). */
function run(command: string, args: string[], signal: AbortSignal | undefined): Promise<string> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { signal, maxBuffer: 4 * 1024 * 1024, windowsHide: true, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        if (signal?.aborted) {
          reject(signal.reason ?? error);
          return;
        }
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
          reject(new AsrError("asr_unavailable", `${command} is not installed`, { retryable: false, cause: error }));
          return;
        }
        const detail = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 500) || error.message;
        reject(new AsrError("asr_failed", `${command} failed: ${detail}`, { retryable: false, cause: error }));
      },
    );
  });
}

/** Duration of an audio file in seconds, from its container (ffprobe). */
export async function probeDuration(file: string, opts: FfmpegPaths & { signal?: AbortSignal } = {}): Promise<number> {
  const out = await run(
    opts.ffprobePath ?? "ffprobe",
    ["-v", "error", "-protocol_whitelist", "file", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", path.resolve(file)],
    opts.signal,
  );
  const seconds = Number.parseFloat(out.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new AsrError("asr_failed", `ffprobe found no duration in ${file}`, { retryable: false });
  }
  return seconds;
}

// Paths are made absolute so that ffmpeg never reads one as an option ("-x") or a protocol ("name:").

/**
 * Writes `length` seconds of `input` from `start` to `output`: re-encoded to 16 kHz mono MP3
 * (`codec: "mp3"`: the chunk starts exactly at `start`, whatever the input), or the audio packets copied
 * as they are (`codec: "copy"`, the output's extension must suit the codec; starts at a packet boundary,
 * and container quirks such as encoder delay can shift it by a few tens of milliseconds). No shell; only
 * local files may be read.
 */
export async function cutAudio(
  input: string,
  output: string,
  start: number,
  length: number,
  opts: FfmpegPaths & { signal?: AbortSignal; codec: "copy" | "mp3"; mp3Bitrate?: string },
): Promise<void> {
  const codecArgs =
    opts.codec === "mp3"
      ? ["-c:a", "libmp3lame", "-ac", "1", "-ar", "16000", "-b:a", opts.mp3Bitrate ?? "64k"]
      : // A copied MP3 chunk that runs to the end of the file otherwise gets a LAME header whose gapless
        // info makes decoders drop its first ~0.2 s, shifting every word in it.
        ["-c:a", "copy", ...(path.extname(output).toLowerCase() === ".mp3" ? ["-write_xing", "0"] : [])];
  await run(
    opts.ffmpegPath ?? "ffmpeg",
    [
      "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
      "-protocol_whitelist", "file",
      "-ss", start.toFixed(3), "-t", length.toFixed(3),
      "-i", path.resolve(input),
      "-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1",
      ...codecArgs,
      path.resolve(output),
    ],
    opts.signal,
  );
}
