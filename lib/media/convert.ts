/**
 * Converts any audio/video file to what speech recognition wants: mono, 16 kHz, small.
 *
 *   const out = await convertForAsr(src, path.join(dir, "asr"), {
 *     signal, durationSeconds: probe.durationSeconds, onProgress: (f) => job.progress(f),
 *   });
 *   // out.path ends in .ogg (Opus 24 kbit/s) or, when this ffmpeg has no libopus, .mp3 (32 kbit/s)
 *
 * ffmpeg streams from file to file: memory stays flat whatever the length. The input is guarded as in
 * tools.ts; tags and pictures are dropped (-map_metadata -1, first audio stream only).
 */
import { randomBytes } from "node:crypto";
import { rename, rm, stat } from "node:fs/promises";
import path from "node:path";

import { MediaError } from "./errors";
import { runTool, ToolStartError } from "@/lib/process/run";
import { FIRST_AUDIO_ONLY_ARGS, fileUrl, INPUT_GUARD_ARGS, NOT_MEDIA_PATTERN, type ToolPaths } from "./tools";

export type AsrCodec = "opus" | "mp3";

export interface ConvertOptions extends Pick<ToolPaths, "ffmpegPath"> {
  signal?: AbortSignal;
  /** Kill ffmpeg after this long. Default 30 min, far above what a 3-hour file needs. */
  timeoutMs?: number;
  /** Input duration (from probeMedia), for onProgress. */
  durationSeconds?: number;
  /** Called with 0…1 as ffmpeg advances (needs durationSeconds > 0), and with 1 at the end. */
  onProgress?: (fraction: number) => void;
  /** Stop the output after this many seconds (a backstop when the input's duration was unknown). */
  maxSeconds?: number;
  /** Default: "opus" when this ffmpeg has the libopus encoder, else "mp3". */
  codec?: AsrCodec;
}

export interface ConvertResult {
  /** `output` with its extension replaced by .ogg or .mp3. */
  path: string;
  bytes: number;
  /**
   * Length of the output as ffmpeg wrote it (its last progress report), in seconds: a measured duration
   * even when the input's was unknown (probe said 0). Null if ffmpeg reported none.
   */
  durationSeconds: number | null;
  codec: AsrCodec;
  mimeType: "audio/ogg" | "audio/mpeg";
}

/** Encoder arguments of each codec (also lib/asr/speech-audio.ts, which re-encodes speech-only audio alike). */
export const CODEC_ARGS: Record<AsrCodec, readonly string[]> = {
  opus: ["-c:a", "libopus", "-b:a", "24k", "-application", "voip", "-f", "ogg"],
  // MPEG-2 layer III at 16 kHz: 32 kbit/s keeps speech clear.
  mp3: ["-c:a", "libmp3lame", "-b:a", "32k", "-f", "mp3"],
};
export const EXTENSION: Record<AsrCodec, string> = { opus: ".ogg", mp3: ".mp3" };
const MIME: Record<AsrCodec, ConvertResult["mimeType"]> = { opus: "audio/ogg", mp3: "audio/mpeg" };

const encoderCache = new Map<string, Promise<AsrCodec>>();

/** "opus" when `ffmpeg -encoders` lists libopus, else "mp3". Cached per binary. */
export function detectAsrCodec(ffmpegPath = "ffmpeg"): Promise<AsrCodec> {
  let cached = encoderCache.get(ffmpegPath);
  if (!cached) {
    cached = runTool(ffmpegPath, ["-hide_banner", "-encoders"], { timeoutMs: 15_000 })
      .then((r): AsrCodec => (r.code === 0 && /^\s*A\S*\s+libopus\s/m.test(r.stdout) ? "opus" : "mp3"))
      .catch((err: unknown) => {
        encoderCache.delete(ffmpegPath);
        if (err instanceof ToolStartError) {
          throw new MediaError("convert_failed", "The audio could not be converted.", {
            detail: err.message,
            cause: err,
          });
        }
        throw err;
      });
    encoderCache.set(ffmpegPath, cached);
  }
  return cached;
}

/** The ffmpeg argument vector (exported for tests and logs). */
export function buildConvertArgs(input: string, output: string, codec: AsrCodec, maxSeconds?: number): string[] {
  return [
    "-nostdin",
    "-hide_banner",
    "-nostats",
    "-loglevel",
    "error",
    "-progress",
    "pipe:1",
    ...INPUT_GUARD_ARGS,
    "-i",
    fileUrl(input),
    ...FIRST_AUDIO_ONLY_ARGS,
    ...(maxSeconds !== undefined ? ["-t", String(maxSeconds)] : []),
    "-ac",
    "1",
    "-ar",
    "16000",
    ...CODEC_ARGS[codec],
    "-y",
    fileUrl(output),
  ];
}

function withExtension(output: string, ext: string): string {
  const parsed = path.parse(path.resolve(output));
  return path.join(parsed.dir, `${parsed.name}${ext}`);
}

/** ffmpeg -i input → mono 16 kHz Opus (or MP3) at `output` (extension replaced). */
export async function convertForAsr(input: string, output: string, opts: ConvertOptions = {}): Promise<ConvertResult> {
  const ffmpeg = opts.ffmpegPath ?? "ffmpeg";
  const codec = opts.codec ?? (await detectAsrCodec(ffmpeg));
  const outPath = withExtension(output, EXTENSION[codec]);
  if (outPath === path.resolve(input)) throw new Error("convertForAsr: output would overwrite the input");

  const duration = opts.durationSeconds !== undefined && opts.durationSeconds > 0 ? opts.durationSeconds : 0;
  const total = opts.maxSeconds !== undefined && duration > 0 ? Math.min(duration, opts.maxSeconds) : duration;
  let lastReported = -1;
  let outSeconds: number | null = null;
  const report = (fraction: number) => {
    if (!opts.onProgress) return;
    const f = Math.min(1, Math.max(0, fraction));
    // At most one call per 0.1 %: a long file would otherwise report twice a second for nothing.
    if (f < 1 && f - lastReported < 0.001) return;
    lastReported = f;
    opts.onProgress(f);
  };
  const onStdoutLine = (line: string) => {
    const eq = line.indexOf("=");
    if (eq === -1) return;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    if (key === "out_time_us") {
      const us = Number(value); // "N/A" before the first packet
      if (!Number.isFinite(us) || us < 0) return;
      outSeconds = us / 1e6;
      if (total > 0) report(outSeconds / total);
    }
  };

  // Written under a fresh name and renamed when complete: the final name only ever holds a whole file.
  const partial = path.join(path.dirname(outPath), `.${path.basename(outPath)}.${randomBytes(6).toString("hex")}.part`);
  let result;
  try {
    result = await runTool(ffmpeg, buildConvertArgs(input, partial, codec, opts.maxSeconds), {
      timeoutMs: opts.timeoutMs ?? 30 * 60_000,
      signal: opts.signal,
      onStdoutLine,
    });
  } catch (err) {
    await rm(partial, { force: true });
    if (err instanceof ToolStartError) {
      throw new MediaError("convert_failed", "The audio could not be converted.", { detail: err.message, cause: err });
    }
    throw err; // the caller's abort reason
  }

  if (result.failure !== null || result.code !== 0) {
    await rm(partial, { force: true });
    const detail = result.stderrTail || `ffmpeg exited with ${result.code}`;
    if (result.failure === "timeout") {
      throw new MediaError("convert_failed", "Converting the audio took too long.", {
        retryable: true,
        detail: `ffmpeg timed out; ${detail}`,
      });
    }
    if (/matches no streams/i.test(detail)) {
      throw new MediaError("unsupported_media", "That file has no sound to transcribe.", { detail });
    }
    if (NOT_MEDIA_PATTERN.test(detail)) {
      throw new MediaError("unsupported_media", "That file is not an audio or video file we can read.", { detail });
    }
    throw new MediaError("convert_failed", "The audio could not be converted.", { detail });
  }

  await rename(partial, outPath);
  const { size } = await stat(/*turbopackIgnore: true*/ outPath);
  report(1);
  return { path: outPath, bytes: size, durationSeconds: outSeconds, codec, mimeType: MIME[codec] };
}
