/**
 * CaptionProvider for X, TikTok, Facebook, Instagram, RedNote and Vimeo, on top of yt-dlp.
 *
 *   const provider = createYtDlpProvider({ outbound });   // yt-dlp's connections go through outbound's guard
 *   const info = await provider.getInfo(source);          // yt-dlp -J on the canonical URL
 *   const segments = await provider.fetchTrack(info, track); // the subtitle file, through `outbound`
 *
 * yt-dlp only ever reads metadata (`-J --skip-download`); the subtitle files themselves are fetched by
 * the outbound module (SSRF guard, size cap), never by yt-dlp.
 */
import { SourceError, type CaptionProvider, type CaptionTrack, type VideoInfo } from "@/lib/captions/types";
import type { Segment } from "@/lib/formats/types";
import type { Outbound } from "@/lib/http/outbound";
import type { ParsedSource, Platform } from "@/lib/sources";

import { CaptionParseError, decodeCaptionBytes, isM3u8, parseM3u8Segments, type CaptionFormat } from "../parse";
import { CaptionTrackTooLarge, parseCaptionsOffThread } from "../parse-off-thread";
import { isYtDlpTrackRef, parseInfoJson, type YtDlpTrackRef } from "./info";
import { DEFAULT_TIMEOUT_MS, runYtDlp, YtDlpError } from "./run";
import { countedProvider } from "@/lib/captions/count-upstream";

/** The platforms this provider serves (YouTube has its own provider; uploads and podcasts have no captions). */
export const YTDLP_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>([
  "x",
  "tiktok",
  "facebook",
  "instagram",
  "rednote",
  "vimeo",
]);

export const DEFAULT_MAX_SUBTITLE_BYTES = 20 * 1024 * 1024;
/** An HLS subtitle playlist with more segments than this is refused (a 3-hour video in 6 s segments is 1800). */
const MAX_HLS_SEGMENTS = 4000;

/** The metadata arguments: one JSON document on stdout, nothing downloaded. */
export const INFO_ARGS: readonly string[] = [
  "-J",
  "--skip-download",
  // Some extractors (TikTok, Vimeo's text tracks) only list captions when subtitles are requested; with
  // -J (simulate) nothing is written.
  "--write-subs",
  "--write-auto-subs",
];

export interface YtDlpProviderOptions {
  outbound: Outbound;
  /** Path of the yt-dlp executable (default: .venv/bin/yt-dlp, else yt-dlp on PATH). */
  binary?: string;
  /** Deadline for one yt-dlp run. Default 60 s. */
  timeoutMs?: number;
  /** Largest subtitle file (or all HLS segments together) accepted. Default 20 MiB. */
  maxSubtitleBytes?: number;
  /**
   * Test hook: a path to an info JSON for this source. yt-dlp then runs on it (`--load-info-json`)
   * instead of fetching the URL; everything else is the same run of the real binary.
   */
  infoJsonFor?: (source: ParsedSource) => string | undefined;
  /** Extra environment variables for yt-dlp (on top of a short passthrough list). */
  env?: Record<string, string>;
  /** The platforms this instance serves. Default YTDLP_PLATFORMS (YouTube's second path passes ["youtube"]). */
  platforms?: ReadonlySet<Platform>;
  /** Extra arguments for the metadata run (YouTube: the PO token provider, cookies). */
  extraArgs?: readonly string[];
  /** Test hook: where a subtitle URL is fetched (YouTube's second path sends www.youtube.com to the fake). */
  rewriteUrl?: (url: URL) => URL;
}

/** A subtitle file (or the texts of HLS segments) → segments; a file we cannot read is the platform's failure. */
async function parseSubtitle(
  body: string | Uint8Array | Uint8Array[],
  format: CaptionFormat,
  kind: CaptionTrack["kind"],
): Promise<Segment[]> {
  try {
    return await parseCaptionsOffThread(body, format, kind);
  } catch (err) {
    if (err instanceof CaptionTrackTooLarge) throw new YtDlpError("response_too_large", err.message, err.message);
    if (err instanceof CaptionParseError)
      throw new YtDlpError("upstream_failed", "The platform sent a caption file Verbatim could not read.", err.message);
    throw err;
  }
}

export function createYtDlpProvider(opts: YtDlpProviderOptions): CaptionProvider {
  const maxBytes = opts.maxSubtitleBytes ?? DEFAULT_MAX_SUBTITLE_BYTES;

  const platforms = opts.platforms ?? YTDLP_PLATFORMS;

  async function getInfo(source: ParsedSource, call?: { timeoutMs?: number; outbound?: Outbound }): Promise<VideoInfo> {
    if (!platforms.has(source.platform)) {
      throw new SourceError(
        "unsupported_source",
        "That link is not something we can get captions for with this provider.",
      );
    }
    if (source.needsResolve) {
      throw new SourceError(
        "unsupported_source",
        "That short link has to be resolved before its captions can be fetched.",
      );
    }
    // The same gate as every other outbound request; OutboundError propagates as is.
    const url = opts.outbound.checkUrl(source.canonicalUrl).href;

    const infoJson = opts.infoJsonFor?.(source);
    const args = [...INFO_ARGS, ...(opts.extraArgs ?? []), ...(infoJson ? ["--load-info-json", infoJson] : [])];
    const timeoutMs = Math.min(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, call?.timeoutMs ?? Infinity);
    const { stdout } = await runYtDlp(args, {
      url: infoJson ? undefined : url,
      binary: opts.binary,
      outbound: call?.outbound ?? opts.outbound,
      timeoutMs: Math.max(1, timeoutMs),
      env: opts.env,
    });

    let parsed;
    try {
      parsed = parseInfoJson(stdout);
    } catch (err) {
      throw new YtDlpError(
        "upstream_failed",
        "The platform answered with something unexpected.",
        err instanceof Error ? err.message : String(err),
      );
    }
    return {
      platform: source.platform,
      videoId: source.videoId,
      canonicalUrl: source.canonicalUrl,
      title: parsed.title,
      durationSeconds: parsed.durationSeconds,
      channel: parsed.channel,
      publishedAt: parsed.publishedAt,
      chapters: parsed.chapters,
      tracks: parsed.tracks,
    };
  }

  async function download(url: string, budget: { left: number }): Promise<{ bytes: Buffer; url: string }> {
    const target = opts.rewriteUrl ? opts.rewriteUrl(new URL(url)) : url;
    const res = await opts.outbound.safeFetchBuffer(target, { maxBytes: Math.max(1, budget.left) });
    if (!res.ok) {
      throw new YtDlpError(
        "upstream_failed",
        "The caption file could not be downloaded from the platform.",
        `HTTP ${res.status} for a subtitle file`,
      );
    }
    budget.left -= res.body.length;
    return { bytes: res.body, url: res.url };
  }

  async function fetchTrack(_info: VideoInfo, track: CaptionTrack): Promise<Segment[]> {
    const ref: unknown = track.ref;
    if (!isYtDlpTrackRef(ref)) throw new Error("fetchTrack: that track does not come from the yt-dlp provider.");
    const r: YtDlpTrackRef = ref;

    if (r.data !== undefined) return parseSubtitle(r.data, r.format, track.kind);
    if (r.url === null)
      throw new YtDlpError("upstream_failed", "The caption track has no address.", "no url and no data");

    const budget = { left: maxBytes };
    const first = await download(r.url, budget);
    // The file itself is decoded in the parse thread; only its first bytes say whether it is a playlist.
    if (!(r.protocol?.startsWith("m3u8") || isM3u8(decodeCaptionBytes(first.bytes.subarray(0, 1024))))) {
      return parseSubtitle(first.bytes, r.format, track.kind);
    }

    // HLS: a media playlist of WebVTT segments (X). A master playlist would list renditions instead.
    const segments = parseM3u8Segments(decodeCaptionBytes(first.bytes), first.url);
    if (segments.length === 0) return [];
    if (segments.length > MAX_HLS_SEGMENTS) {
      throw new YtDlpError(
        "upstream_failed",
        "The caption track is larger than we accept.",
        `${segments.length} HLS segments`,
      );
    }
    const texts: Buffer[] = [];
    for (const segmentUrl of segments) {
      if (budget.left <= 0)
        throw new YtDlpError(
          "upstream_failed",
          "The caption track is larger than we accept.",
          "HLS segments over the size cap",
        );
      texts.push((await download(segmentUrl, budget)).bytes);
    }
    return parseSubtitle(texts, "vtt", track.kind);
  }

  return countedProvider({ getInfo, fetchTrack }, "yt-dlp");
}

export interface YoutubeYtDlpOptions {
  /** YOUTUBE_POT_PROVIDER_URL: the bgutil provider's HTTP server, for the bgutil-ytdlp-pot-provider plugin. */
  potProviderUrl?: string;
  /** YOUTUBE_COOKIES_FILE (Netscape format), passed as --cookies. */
  cookiesFile?: string;
}

/**
 * yt-dlp's arguments for YouTube as the second path: its PO token provider plugin pointed at the
 * bgutil HTTP server (`youtubepot-bgutilhttp:base_url=...`, as the plugin documents; plugins are
 * switched back on for that, since BASE_ARGS turns them off) and the cookies file.
 */
export function youtubeYtDlpArgs(o: YoutubeYtDlpOptions): string[] {
  const args: string[] = [];
  if (o.potProviderUrl)
    args.push("--plugin-dirs", "default", "--extractor-args", `youtubepot-bgutilhttp:base_url=${o.potProviderUrl}`);
  if (o.cookiesFile) args.push("--cookies", o.cookiesFile);
  return args;
}
