import type { Segment } from "@/lib/formats/types";
import type { ParsedSource } from "@/lib/sources";

// What every caption source (YouTube through youtubei.js, the other platforms through yt-dlp)
// gives the transcripts domain. Providers never pick a language; pick-track.ts does.

/**
 * manual: written by people. auto: the platform's speech recognition. translated: a machine
 * translation of another track (YouTube's auto-translated tracks, listed by yt-dlp as `de-en`,
 * `zh-Hans-en` or with `tlang` in the URL); only picked when no original track has the language.
 */
export type CaptionKind = "manual" | "auto" | "translated";

export interface CaptionTrack {
  /** BCP-47-ish code as normalised by the provider: "en", "en-US", "pt-BR", "zh-Hans". */
  lang: string;
  /** Human name of the language, e.g. "English (auto-generated)" → "English". */
  name: string;
  kind: CaptionKind;
  /** Provider-private handle needed to fetch this track (URL, format list…). */
  ref: unknown;
}

export interface VideoInfo {
  platform: ParsedSource["platform"];
  videoId: string;
  canonicalUrl: string;
  title: string | null;
  /** Whole seconds, 0 when the platform does not say. */
  durationSeconds: number;
  tracks: CaptionTrack[];
}

export interface CaptionProvider {
  /** Metadata and caption tracks. Throws SourceError for unavailable/private/age-restricted items. */
  getInfo(source: ParsedSource): Promise<VideoInfo>;
  /** The segments of one track, parsed, entities decoded, (for auto captions) de-duplicated. */
  fetchTrack(info: VideoInfo, track: CaptionTrack): Promise<Segment[]>;
}

export type SourceErrorCode =
  | "video_unavailable" // removed, private, wrong id → 404
  | "age_restricted" // needs sign-in → 403
  | "unsupported_source" // the platform cannot serve this item → 422
  | "upstream_failed"; // the platform or tool failed → 502

const STATUS: Record<SourceErrorCode, number> = {
  video_unavailable: 404,
  age_restricted: 403,
  unsupported_source: 422,
  upstream_failed: 502,
};

export class SourceError extends Error {
  readonly status: number;
  constructor(
    readonly code: SourceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SourceError";
    this.status = STATUS[code];
  }
}
