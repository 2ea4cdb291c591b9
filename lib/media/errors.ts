import { ERROR_CODES } from "@/lib/http/error-codes";

/**
 * The error type of the audio steps (download, probe, convert). `message` is a sentence safe to show
 * the caller; `detail` (a tool's stderr tail, an HTTP status…) is for logs only. `retryable` says
 * whether running the same step again later may succeed (network trouble, a timeout), as opposed to
 * a problem with the file itself.
 */
// Each code's status and meaning: lib/http/error-codes.ts.
export type MediaErrorCode =
  | "unsupported_media" // not audio/video we can read
  | "media_too_large" // over the byte cap
  | "media_too_long" // over the duration cap
  | "download_failed" // the file could not be fetched
  | "probe_failed" // ffprobe could not run (not: the file is bad)
  | "convert_failed"; // ffmpeg could not convert a file it could read

const RETRYABLE_BY_DEFAULT: Record<MediaErrorCode, boolean> = {
  unsupported_media: false,
  media_too_large: false,
  media_too_long: false,
  download_failed: true,
  probe_failed: false,
  convert_failed: false,
};

export interface MediaErrorOptions {
  /** Default: true for download_failed, false for the others. */
  retryable?: boolean;
  /** For logs: a tool's stderr tail, an HTTP status, a yt-dlp error line. Never shown to callers. */
  detail?: string;
  cause?: unknown;
}

export class MediaError extends Error {
  override readonly name = "MediaError";
  readonly code: MediaErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly detail: string;

  constructor(code: MediaErrorCode, message: string, options: MediaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT[code];
    this.detail = options.detail ?? "";
  }
}

export function isMediaError(err: unknown): err is MediaError {
  return err instanceof MediaError;
}

/** Durations in messages about duration caps: the one spoken form ("2 h 5 min", "12 min 30 s", "45 s"). */
export { spokenDuration as formatDuration } from "@/lib/formats/spoken-duration";

/** "512 MiB", "1.5 GiB", "300 KiB": for messages about size caps. */
export function formatBytes(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${Math.round(v * 10) / 10} ${units[i]}`;
}
