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
 * partial-file cleanup), stated here; each is a module of its own (download-url.ts, download-platform.ts),
 * with the accepted media types in content-types.ts.
 */
export { isAcceptedContentType, mediaTypeOf } from "./content-types";
export {
  downloadPlatformAudio,
  platformAudioArgs,
  PLATFORM_FORMAT,
  type PlatformAudioFile,
  type PlatformAudioOptions,
} from "./download-platform";
export { downloadAudioUrl, type DownloadAudioUrlOptions, type DownloadedFile } from "./download-url";
