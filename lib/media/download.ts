/**
 * Gets the audio of a source onto local disk, streaming (never a whole file in memory).
 *
 *   // A direct link (podcast episode, .mp3/.m4a/.mp4 URL): through the outbound module.
 *   const file = await downloadAudioUrl(url, dir, { outbound, maxBytes, signal });
 *
 *   // A platform item (YouTube, X, TikTok, …): yt-dlp picks and fetches the best audio-only format.
 *   const file = await downloadPlatformAudio(source, dir, { maxBytes, maxDurationSeconds, signal });
 *
 * Errors are MediaError (unsupported_media, media_too_large, media_too_long, download_failed), with two
 * exceptions that keep their own meaning: an OutboundError for a URL or redirect the guard refuses
 * (url_not_allowed, address_not_allowed), and a SourceError from yt-dlp for an item the platform will
 * not serve (video_unavailable, age_restricted, unsupported_source). An abort rejects with the signal's
 * reason. A partly written file is deleted before the promise settles, and the returned path only ever
 * holds a complete file (a retry into the same directory replaces it).
 *
 * The two ways share one contract (the size and duration caps, the accepted media types, the errors, the
 * partial-file cleanup), which is why they are one module.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";

import { SourceError } from "@/lib/captions/types";
import { runYtDlp, YtDlpError } from "@/lib/captions/ytdlp/run";
import { OutboundError, explainForUrl, outbound as defaultOutbound, type Outbound } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";

import { formatBytes, formatDuration, MediaError } from "./errors";
import { SNIFF_BYTES, sniffMediaType } from "./magic";

// ---------------------------------------------------------------------------------------------------
// Content types
// ---------------------------------------------------------------------------------------------------

/** Playlists live under audio/* but are text pointing elsewhere: never a file we transcribe. */
const PLAYLIST_TYPES = new Set(["audio/x-mpegurl", "audio/mpegurl", "audio/x-scpls", "audio/scpls", "audio/x-ms-asx"]);
/** Generic binary types: the bytes decide (ffprobe). `binary/octet-stream` is S3's old default. */
const GENERIC_TYPES = new Set(["application/octet-stream", "binary/octet-stream", "application/ogg"]);

/** The media type of a Content-Type header, lower case, without parameters ("" when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Whether a download with this Content-Type may be audio: audio/*, video/*, generic binary types, or
 * no type at all (then ffprobe decides). HTML, JSON, text, images and playlists are refused.
 */
export function isAcceptedContentType(contentType: string | null | undefined): boolean {
  const type = mediaTypeOf(contentType);
  if (type === "") return true;
  if (PLAYLIST_TYPES.has(type)) return false;
  return type.startsWith("audio/") || type.startsWith("video/") || GENERIC_TYPES.has(type);
}

const EXTENSIONS: Record<string, string> = {
  "audio/mpeg": ".mp3",
  "audio/mp3": ".mp3",
  "audio/mp4": ".m4a",
  "audio/x-m4a": ".m4a",
  "audio/m4a": ".m4a",
  "audio/aac": ".aac",
  "audio/aacp": ".aac",
  "audio/wav": ".wav",
  "audio/x-wav": ".wav",
  "audio/wave": ".wav",
  "audio/ogg": ".ogg",
  "audio/opus": ".opus",
  "application/ogg": ".ogg",
  "audio/flac": ".flac",
  "audio/x-flac": ".flac",
  "audio/webm": ".webm",
  "video/webm": ".webm",
  "video/mp4": ".mp4",
  "video/quicktime": ".mov",
  "video/x-matroska": ".mkv",
  "audio/aiff": ".aiff",
  "audio/x-aiff": ".aiff",
  "audio/amr": ".amr",
};

/** A file extension for the download: from the Content-Type, else the URL's, else ".bin". */
function extensionFor(type: string, url: string): string {
  const fromType = EXTENSIONS[type];
  if (fromType) return fromType;
  try {
    const ext = path.extname(new URL(url).pathname).toLowerCase();
    if (/^\.[a-z0-9]{1,5}$/.test(ext)) return ext;
  } catch {
    // not a URL we can read an extension from
  }
  return ".bin";
}

// ---------------------------------------------------------------------------------------------------
// Direct URLs
// ---------------------------------------------------------------------------------------------------

export interface DownloadAudioUrlOptions {
  /** The outbound instance (SSRF guard, proxy). Tests pass one with `allowPrivateFor`. */
  outbound: Outbound;
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  signal?: AbortSignal;
  /** File name in destDir, without extension. Default "source". */
  baseName?: string;
  /** Until the response head (redirects and retries included). Default: the outbound default (30 s). */
  timeoutMs?: number;
  /** Longest silence while the body streams. Default: the outbound default (30 s). */
  idleTimeoutMs?: number;
}

export interface DownloadedFile {
  path: string;
  bytes: number;
  /** The response's media type, lower case without parameters ("" when the server sent none). */
  contentType: string;
  /** What the first bytes say (magic.ts), null when unrecognised. */
  sniffedType: string | null;
}

/** Passes bytes through unchanged, keeping a copy of the first `limit` of them. */
class HeadCapture extends Transform {
  private chunks: Buffer[] = [];
  private kept = 0;
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    cb(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function mapOutboundError(err: OutboundError, maxBytes: number, url: string): Error {
  switch (err.code) {
    case "response_too_large":
      return new MediaError("media_too_large", `That file is larger than the ${formatBytes(maxBytes)} limit.`, {
        detail: err.message,
        cause: err,
      });
    case "url_not_allowed":
    case "address_not_allowed":
      return err; // the caller's URL (or where it redirects) is the problem: keep the guard's answer
    case "upstream_dns_failed":
    case "upstream_refused":
    case "upstream_tls_failed":
      // Not the file: the link's host (or this server's network). Its own code and a sentence naming the host.
      return explainForUrl(err, url);
    case "too_many_redirects":
      return new MediaError("download_failed", "The file could not be downloaded: too many redirects.", {
        retryable: false,
        detail: err.message,
        cause: err,
      });
    default:
      return new MediaError("download_failed", "The file could not be downloaded.", {
        detail: err.message,
        cause: err,
      });
  }
}

/**
 * Streams `url` into `<destDir>/<baseName><ext>` through `outbound.safeFetchStream` (address checks at
 * connect time, safe redirects, byte cap). Refuses non-2xx answers (download_failed; retryable for 5xx
 * and 429), Content-Types that cannot be audio (unsupported_media), bodies over `maxBytes`
 * (media_too_large, also when the server sends no Content-Length) and empty bodies (unsupported_media).
 */
export async function downloadAudioUrl(
  url: string,
  destDir: string,
  opts: DownloadAudioUrlOptions,
): Promise<DownloadedFile> {
  opts.signal?.throwIfAborted();
  let res;
  try {
    res = await opts.outbound.safeFetchStream(url, {
      maxBytes: opts.maxBytes,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      idleTimeoutMs: opts.idleTimeoutMs,
      headers: { accept: "audio/*, video/*;q=0.9, application/octet-stream;q=0.5" },
    });
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof OutboundError) throw mapOutboundError(err, opts.maxBytes, url);
    throw err;
  }

  const contentType = mediaTypeOf(res.headers.get("content-type"));
  if (!res.ok) {
    res.body.destroy();
    const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
    throw new MediaError("download_failed", `The file could not be downloaded (the server answered ${res.status}).`, {
      retryable,
      detail: `HTTP ${res.status} from ${res.url}`,
    });
  }
  if (!isAcceptedContentType(contentType)) {
    res.body.destroy();
    throw new MediaError("unsupported_media", "That link does not lead to an audio or video file.", {
      detail: `Content-Type ${contentType} from ${res.url}`,
    });
  }

  // Paths here are in a job's temporary folder, never the project's: the turbopackIgnore comments keep Turbopack
  // from tracing the whole project into the server output for them.
  const file = path.join(
    /*turbopackIgnore: true*/ destDir,
    `${opts.baseName ?? "source"}${extensionFor(contentType, res.url)}`,
  );
  // Written under a fresh name ("wx": never through something already there), renamed when complete:
  // the final name only ever holds a whole file, and a retry into the same directory just replaces it.
  const partial = path.join(destDir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.part`);
  const capture = new HeadCapture(SNIFF_BYTES);
  try {
    await pipeline(res.body, capture, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
  } catch (err) {
    res.body.destroy();
    await rm(partial, { force: true });
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof OutboundError) throw mapOutboundError(err, opts.maxBytes, url);
    throw new MediaError("download_failed", "The file could not be saved.", {
      detail: err instanceof Error ? err.message : String(err),
      cause: err,
    });
  }
  if (capture.bytes === 0) {
    await rm(partial, { force: true });
    throw new MediaError("unsupported_media", "That link leads to an empty file.", {
      detail: `0 bytes from ${res.url}`,
    });
  }
  await rename(partial, file);
  return { path: file, bytes: capture.bytes, contentType, sniffedType: sniffMediaType(capture.head()) };
}

// ---------------------------------------------------------------------------------------------------
// Platforms, through yt-dlp
// ---------------------------------------------------------------------------------------------------

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
