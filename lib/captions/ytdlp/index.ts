/**
 * Captions for X, TikTok, Facebook, Instagram, RedNote and Vimeo through yt-dlp.
 *
 *   import { createYtDlpProvider } from "@/lib/captions/ytdlp";
 *   const provider = createYtDlpProvider({ outbound });
 *
 * The binary comes from scripts/install-yt-dlp.sh (.venv/bin/yt-dlp), or `binary`, or PATH.
 */
export {
  createYtDlpProvider,
  DEFAULT_MAX_SUBTITLE_BYTES,
  INFO_ARGS,
  YTDLP_PLATFORMS,
  type YtDlpProviderOptions,
} from "./provider";
export {
  BASE_ARGS,
  mapYtDlpError,
  resolveYtDlpBinary,
  runYtDlp,
  YtDlpError,
  type RunYtDlpOptions,
  type RunYtDlpResult,
} from "./run";
export { captionTracks, chooseFormat, parseInfoJson, type YtDlpInfo, type YtDlpTrackRef } from "./info";
export { normalizeLang } from "./language-keys";
