export {
  createYoutubeProvider,
  normaliseLanguageCode,
  playabilityError,
  trackName,
  MAX_TRACK_BYTES,
  type YoutubeProviderOptions,
  type YoutubeTrackRef,
} from "./provider";
export { createOutboundFetch, isAllowedYoutubeHost, rewriteYoutubeUrl, YOUTUBE_API_HOSTS, type OutboundFetchOptions } from "./fetch";
