// A direct link (podcast episode, .mp3/.m4a/.mp4 URL) downloaded through the outbound module (download.ts).
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";

import { OutboundError, explainForUrl, type Outbound } from "@/lib/http/outbound";

import { formatBytes, MediaError } from "./errors";
import { SNIFF_BYTES, sniffMediaType } from "./magic";
import { extensionFor, isAcceptedContentType, mediaTypeOf } from "./content-types";

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
