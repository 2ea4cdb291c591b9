// A platform item (YouTube, X, TikTok, …): yt-dlp picks and fetches the best audio-only format (download.ts).
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";

import { SourceError } from "@/lib/captions/types";
import { runYtDlp, YtDlpError } from "@/lib/captions/ytdlp/run";
import { outbound as defaultOutbound, type Outbound } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";

import { formatBytes, formatDuration, MediaError } from "./errors";

export interface PlatformAudioOptions {
  /** Path of the yt-dlp executable. Default: .venv/bin/yt-dlp, else yt-dlp on PATH (see runYtDlp). */
  binary?: string;
  /** Largest file accepted (`--max-filesize`, and a watch on the directory for sizes not announced). */
  maxBytes: number;
  /** Longest item accepted (`--match-filter`); items that do not say their duration pass, probe them. */
  maxDurationSeconds: number;
  signal?: AbortSignal;
  /** Deadline for the whole yt-dlp run. Default 30 min. */
  timeoutMs?: number;
  /**
   * Checks the item's URL before yt-dlp sees it, and every connection yt-dlp then makes (its guarded
   * forward proxy, chained to the instance's proxy). Default: the strict default instance.
   */
  outbound?: Pick<Outbound, "checkUrl" | "toolProxyUrl">;
  /**
   * Test hook: an info JSON for the item. yt-dlp then runs on it (`--load-info-json`) instead of
   * extracting the URL; format selection, filters and the download are the same run of the real binary.
   */
  infoJsonPath?: string;
  /** Extra environment variables for yt-dlp. */
  env?: Record<string, string>;
  /** How often the directory is measured during the download. Default 250 ms. */
  sizeCheckIntervalMs?: number;
}

export interface PlatformAudioFile {
  path: string;
  bytes: number;
  /** What yt-dlp said before downloading; null when the platform does not say. */
  durationSeconds: number | null;
}

const META_MARK = "VERBATIM-META ";
const FILE_MARK = "VERBATIM-FILE ";

/**
 * Protocols fetched over HTTP(S), i.e. through --proxy (the guard): yt-dlp's own downloaders, and ffmpeg
 * for HLS, which it gives the proxy too. RTMP, RTSP, MMS… would be handed to tools (rtmpdump, mpv) that
 * connect by themselves.
 */
const HTTP_PROTOCOLS = "[protocol~='^(https?|m3u8(_native)?|http_dash_segments)$']";

/** Best audio, else the best format with sound, among formats fetched over HTTP(S) only. */
export const PLATFORM_FORMAT = `bestaudio${HTTP_PROTOCOLS}/best${HTTP_PROTOCOLS}`;

/** The yt-dlp arguments for one best-audio download into destDir (after runYtDlp's BASE_ARGS). */
export function platformAudioArgs(destDir: string, maxBytes: number, maxDurationSeconds: number): string[] {
  // "%" starts a template field in -o: a directory name must not contain one unescaped.
  const template = path.join(path.resolve(destDir).replaceAll("%", "%%"), "audio.%(ext)s");
  return [
    "-f",
    PLATFORM_FORMAT,
    "--max-filesize",
    String(Math.floor(maxBytes)),
    // Live streams never end; `<=?` lets items without a duration through (the probe measures them).
    "--match-filter",
    `!is_live & duration <=? ${Math.floor(maxDurationSeconds)}`,
    "--playlist-items",
    "1",
    "-o",
    template,
    "--no-part",
    // A file of the same name already there is deleted first: never taken for the download, never
    // "resumed" with a Range request on top of bytes that are not the item's.
    "--force-overwrites",
    "--no-continue",
    "--no-mtime",
    "--no-progress",
    // --print would imply --quiet and simulate: we want the download and yt-dlp's own messages.
    "--no-simulate",
    "--no-quiet",
    // Printed before the match filter runs, so a skipped item still tells us why.
    "--print",
    `pre_process:${META_MARK}%(.{duration,is_live})j`,
    "--print",
    `after_move:${FILE_MARK}%(filepath)s`,
  ];
}

interface RunOutput {
  meta: { duration?: number | null; is_live?: boolean | null } | null;
  file: string | null;
}

function parseRunOutput(stdout: string): RunOutput {
  let meta: RunOutput["meta"] = null;
  let file: string | null = null;
  for (const line of stdout.split(/\r?\n/)) {
    if (line.startsWith(META_MARK)) {
      try {
        meta = JSON.parse(line.slice(META_MARK.length)) as RunOutput["meta"];
      } catch {
        meta = null;
      }
    } else if (line.startsWith(FILE_MARK)) {
      file = line.slice(FILE_MARK.length).trim();
    }
  }
  return { meta, file };
}

/** Total size of the files in `dir` that are not in `skip` (what was there before we started). */
async function dirSize(dir: string, skip: ReadonlySet<string>): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || skip.has(entry.name)) continue;
    try {
      total += (await stat(path.join(dir, entry.name))).size;
    } catch {
      // renamed or removed between readdir and stat
    }
  }
  return total;
}

const NOT_FOR_YTDLP = new Set<ParsedSource["platform"]>(["upload", "podcast"]);

/**
 * Downloads the best audio of a platform item with yt-dlp (`-f bestaudio/best`, HTTP(S) formats only) into
 * `<destDir>/audio.<ext>`. Enforces `maxDurationSeconds` before anything is downloaded when the
 * platform states the duration (media_too_long), refuses live streams (unsupported_media), and enforces
 * `maxBytes` both from the announced size and by watching the directory while yt-dlp writes
 * (media_too_large: yt-dlp itself only checks sizes the server announces).
 */
export async function downloadPlatformAudio(
  source: ParsedSource,
  destDir: string,
  opts: PlatformAudioOptions,
): Promise<PlatformAudioFile> {
  opts.signal?.throwIfAborted();
  if (NOT_FOR_YTDLP.has(source.platform)) {
    throw new MediaError("unsupported_media", "That source is a file, not a platform item.", {
      detail: `platform ${source.platform}: use downloadAudioUrl`,
    });
  }
  if (source.needsResolve) {
    throw new MediaError("unsupported_media", "That short link has to be resolved before its audio can be fetched.", {
      detail: source.canonicalUrl,
    });
  }
  // The same gate as every other outbound request; an OutboundError propagates as is.
  const url = (opts.outbound ?? defaultOutbound).checkUrl(source.canonicalUrl).href;
  const dir = path.resolve(destDir);
  const before = new Set(await readdir(dir));

  const watchdog = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, watchdog.signal]) : watchdog.signal;
  const tooLarge = () =>
    new MediaError("media_too_large", `That item's audio is larger than the ${formatBytes(opts.maxBytes)} limit.`, {
      detail: `over ${opts.maxBytes} bytes`,
    });
  let measuring = false;
  const interval = setInterval(() => {
    if (measuring) return;
    measuring = true;
    dirSize(dir, before)
      .then((size) => {
        if (size > opts.maxBytes) watchdog.abort(tooLarge());
      })
      .catch(() => undefined)
      .finally(() => {
        measuring = false;
      });
  }, opts.sizeCheckIntervalMs ?? 250);

  const removeOurFiles = async () => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!before.has(name)) await rm(path.join(dir, name), { recursive: true, force: true });
    }
  };

  try {
    const args = platformAudioArgs(dir, opts.maxBytes, opts.maxDurationSeconds);
    if (opts.infoJsonPath) args.push("--load-info-json", opts.infoJsonPath);
    let stdout: string;
    try {
      ({ stdout } = await runYtDlp(args, {
        url: opts.infoJsonPath ? undefined : url,
        binary: opts.binary,
        outbound: opts.outbound ?? defaultOutbound,
        timeoutMs: opts.timeoutMs ?? 30 * 60_000,
        env: opts.env,
        signal,
      }));
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (err instanceof MediaError) throw err; // the watchdog's reason
      if (err instanceof YtDlpError && err.code === "upstream_failed") {
        throw new MediaError("download_failed", err.message, { detail: err.detail, cause: err });
      }
      if (err instanceof SourceError) throw err;
      throw new MediaError("download_failed", "The audio could not be downloaded from the platform.", {
        detail: err instanceof Error ? err.message : String(err),
        cause: err,
      });
    }

    const { meta, file } = parseRunOutput(stdout);
    const duration = typeof meta?.duration === "number" && Number.isFinite(meta.duration) ? meta.duration : null;
    if (file === null || path.dirname(path.resolve(/*turbopackIgnore: true*/ file)) !== dir) {
      // yt-dlp exits 0 when it skips an item: say why.
      if (meta?.is_live === true) {
        throw new MediaError(
          "unsupported_media",
          "Live streams cannot be transcribed; try again once the broadcast has ended.",
          { detail: "is_live" },
        );
      }
      if (duration !== null && duration > opts.maxDurationSeconds) {
        throw new MediaError(
          "media_too_long",
          `That recording is ${formatDuration(duration)} long; the limit is ${formatDuration(opts.maxDurationSeconds)}.`,
          {
            detail: `${duration} s > ${opts.maxDurationSeconds} s`,
          },
        );
      }
      if (/larger than max-filesize/i.test(stdout)) throw tooLarge();
      throw new MediaError("download_failed", "The audio could not be downloaded from the platform.", {
        detail: `yt-dlp wrote no file; ${stdout.trim().split(/\r?\n/).slice(-3).join(" | ")}`,
      });
    }
    const { size } = await stat(/*turbopackIgnore: true*/ file);
    if (size > opts.maxBytes) throw tooLarge();
    if (size === 0) throw new MediaError("unsupported_media", "The platform sent an empty file.", { detail: file });
    return { path: path.resolve(/*turbopackIgnore: true*/ file), bytes: size, durationSeconds: duration };
  } catch (err) {
    await removeOurFiles();
    throw err;
  } finally {
    clearInterval(interval);
  }
}
