/**
 * ffprobe on a local file: what it is, how long it is, whether it has sound.
 *
 *   const probe = await probeMedia(file, { signal });
 *   assertHasAudio(probe);
 *   assertDuration(probe, 3 * 3600);
 *
 * Input guards (protocols, demuxers) as in tools.ts. A file ffprobe cannot read is `unsupported_media`;
 * `probe_failed` is for ffprobe itself failing (missing binary, timeout, unreadable output).
 */
import { access } from "node:fs/promises";

import { formatDuration, MediaError } from "./errors";
import { runTool, ToolStartError } from "@/lib/process/run";
import { fileUrl, INPUT_GUARD_ARGS, NOT_MEDIA_PATTERN, type ToolPaths } from "./tools";

export interface ProbeResult {
  /** Seconds, from the container (else the longest stream); 0 when the file does not say (some WebM recordings). */
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's format_name, e.g. "mp3", "ogg", "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm". */
  formatName: string;
  /** Codec of the first audio stream ("mp3", "aac", "opus"…), null without audio. */
  codec: string | null;
  /** Of the first audio stream. */
  sampleRate: number | null;
  channels: number | null;
  /** The file's own title tag (ID3 TIT2, Vorbis/MP4 title), when it has one. */
  title: string | null;
}

export interface ProbeOptions extends Pick<ToolPaths, "ffprobePath"> {
  signal?: AbortSignal;
  /** Default 60 s (ffprobe reads headers, not the whole file). */
  timeoutMs?: number;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; tags?: Record<string, unknown> };
  streams?: FfprobeStream[];
}

function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** The `title` tag, whatever its case ("title", "TITLE"), cleaned; null when absent or blank. */
function tagTitle(tags: Record<string, unknown> | undefined): string | null {
  if (!tags || typeof tags !== "object") return null;
  const value = Object.entries(tags).find(([key]) => key.toLowerCase() === "title")?.[1];
  if (typeof value !== "string") return null;
  const clean = value
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return clean === "" ? null : clean.slice(0, 300);
}

/** Turns ffprobe's JSON into a ProbeResult; throws unsupported_media when there is nothing to play. */
export function parseFfprobeJson(json: string): ProbeResult {
  let data: FfprobeOutput;
  try {
    data = JSON.parse(json) as FfprobeOutput;
  } catch (err) {
    throw new MediaError("probe_failed", "The file could not be inspected.", {
      detail: "ffprobe printed invalid JSON",
      cause: err,
    });
  }
  const streams = Array.isArray(data.streams) ? data.streams : [];
  const audio = streams.filter((s) => s.codec_type === "audio");
  // A cover picture in an MP3/M4A is a "video" stream; it is not video.
  const video = streams.filter((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1);
  if (audio.length === 0 && video.length === 0) {
    throw new MediaError("unsupported_media", "That file has no audio or video in it.", {
      detail: `format ${data.format?.format_name ?? "?"}, no a/v streams`,
    });
  }
  let duration = num(data.format?.duration);
  if (duration === null || duration <= 0) {
    const fromStreams = streams.map((s) => num(s.duration)).filter((d): d is number => d !== null && d > 0);
    duration = fromStreams.length > 0 ? Math.max(...fromStreams) : 0;
  }
  const first = audio[0];
  return {
    durationSeconds: duration,
    hasAudio: audio.length > 0,
    hasVideo: video.length > 0,
    formatName: data.format?.format_name ?? "",
    codec: first?.codec_name ?? null,
    sampleRate: first ? num(first.sample_rate) : null,
    channels: first ? num(first.channels) : null,
    title: tagTitle(data.format?.tags),
  };
}

/** ffprobe `-show_format -show_streams` on a local file, no shell, guarded input. */
export async function probeMedia(file: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const binary = opts.ffprobePath ?? "ffprobe";
  try {
    await access(file);
  } catch (err) {
    throw new MediaError("probe_failed", "The file could not be inspected.", {
      detail: `cannot read ${file}`,
      cause: err,
    });
  }
  const args = [
    "-v",
    "error",
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    ...INPUT_GUARD_ARGS,
    fileUrl(file),
  ];
  let result;
  try {
    result = await runTool(binary, args, {
      timeoutMs: opts.timeoutMs ?? 60_000,
      signal: opts.signal,
      maxStdoutBytes: 4 * 1024 * 1024,
    });
  } catch (err) {
    if (err instanceof ToolStartError) {
      throw new MediaError("probe_failed", "The file could not be inspected.", { detail: err.message, cause: err });
    }
    throw err; // the caller's abort reason
  }
  if (result.failure === "timeout") {
    throw new MediaError("probe_failed", "Inspecting the file took too long.", {
      retryable: true,
      detail: "ffprobe timed out",
    });
  }
  if (result.failure === "stdout_too_large") {
    throw new MediaError("unsupported_media", "That file is not an audio or video file we can read.", {
      detail: "ffprobe output over 4 MiB",
    });
  }
  if (result.code !== 0) {
    const detail = result.stderrTail || `ffprobe exited with ${result.code}`;
    // ffprobe exits non-zero for anything it cannot open as media; with the file present, that is the file.
    if (NOT_MEDIA_PATTERN.test(detail) || result.code === 1) {
      throw new MediaError("unsupported_media", "That file is not an audio or video file we can read.", { detail });
    }
    throw new MediaError("probe_failed", "The file could not be inspected.", { detail });
  }
  return parseFfprobeJson(result.stdout);
}

/** Throws media_too_long when the probe says the file is longer than `maxSeconds` (unknown: passes). */
export function assertDuration(probe: Pick<ProbeResult, "durationSeconds">, maxSeconds: number): void {
  if (probe.durationSeconds > maxSeconds) {
    throw new MediaError(
      "media_too_long",
      `That recording is ${formatDuration(probe.durationSeconds)} long; the limit is ${formatDuration(maxSeconds)}.`,
      {
        detail: `${probe.durationSeconds} s > ${maxSeconds} s`,
      },
    );
  }
}

/** Throws unsupported_media for a file without an audio stream (a silent video, a picture). */
export function assertHasAudio(probe: Pick<ProbeResult, "hasAudio">): void {
  if (!probe.hasAudio)
    throw new MediaError("unsupported_media", "That file has no sound to transcribe.", { detail: "no audio stream" });
}
