import { ERROR_CODES } from "@/lib/http/error-codes";
import type { Segment } from "@/lib/formats/types";
import type { ParsedSource } from "@/lib/sources";
import type { Outbound } from "@/lib/http/outbound";

// What every caption source (YouTube through youtubei.js, the other platforms through yt-dlp)
// gives the transcripts domain. Providers never pick a language; pick-track.ts does.

/**
 * manual: written by people. auto: the platform's speech recognition. translated: a machine
 * translation of another track (YouTube's auto-translated tracks, listed by yt-dlp as `de-en`,
 * `zh-Hans-en` or with `tlang` in the URL); only picked when no original track has the language.
 */
export type CaptionKind = "manual" | "auto" | "translated";

export interface CaptionTrack {
  /** BCP-47-ish code as normalized by the provider: "en", "en-US", "pt-BR", "zh-Hans". */
  lang: string;
  /** Human name of the language, e.g. "English (auto-generated)" → "English". */
  name: string;
  kind: CaptionKind;
  /** Provider-private handle needed to fetch this track (URL, format list…). */
  ref: unknown;
}

/** A titled part of a video, from the platform's chapter list or the description's timestamps. */
export interface Chapter {
  /** Seconds from the start. */
  start: number;
  title: string;
}

/** What the platform says about the item besides its captions (all optional: not every platform tells). */
export interface VideoMetadata {
  channel?: string | null;
  /** ISO 8601 date or date-time, as precise as the platform gives it. */
  publishedAt?: string | null;
  chapters?: Chapter[];
}

export interface VideoInfo extends VideoMetadata {
  platform: ParsedSource["platform"];
  videoId: string;
  canonicalUrl: string;
  title: string | null;
  /** Whole seconds, 0 when the platform does not say. */
  durationSeconds: number;
  tracks: CaptionTrack[];
  /**
   * Which client or path served the captions, e.g. "innertube:VISIONOS" or "yt-dlp". Set by
   * getInfo; fetchTrack updates it when it had to fall back to another client or path.
   */
  servedBy?: string;
}

export interface CaptionProvider {
  /** Metadata and caption tracks. Throws SourceError for unavailable/private/age-restricted items. */
  getInfo(source: ParsedSource, opts?: { timeoutMs?: number; outbound?: Outbound }): Promise<VideoInfo>;
  /** The segments of one track, parsed, entities decoded, (for auto captions) de-duplicated. */
  fetchTrack(info: VideoInfo, track: CaptionTrack): Promise<Segment[]>;
}

// Statuses and retryability: lib/http/error-codes.ts.
export type SourceErrorCode =
  | "video_unavailable" // removed, private, wrong id
  | "age_restricted" // needs sign-in
  | "unsupported_source" // the platform cannot serve this item
  | "upstream_failed" // the platform or tool failed
  | "upstream_dns_failed" // the platform's name could not be resolved from this server
  | "upstream_refused" // the connection to the platform (or the proxy) was refused
  | "upstream_tls_failed" // no secure connection to the platform (certificate not accepted)
  | "upstream_blocked" // the platform refused this server (bot check)
  | "upstream_rate_limited" // the platform rate-limited this server (429)
  | "po_token_required" // the platform wants a proof-of-origin token and none is configured
  | "live_not_finished" // a live stream or premiere that has not ended
  | "response_too_large" // the caption track is longer than one transcript keeps
  | "video_unplayable"; // the platform will not play it, for its own stated reason

export class SourceError extends Error {
  readonly status: number;
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    /** For 503s: when asking again may work (the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "SourceError";
    this.status = ERROR_CODES[code].status;
  }
}
