export {
  createYoutubeProvider,
  normalizeLanguageCode,
  playabilityError,
  trackName,
  MAX_TRACK_BYTES,
  type YoutubeProviderOptions,
  type YoutubeTrackRef,
} from "./provider";
export {
  createOutboundFetch,
  isAllowedYoutubeHost,
  rewriteYoutubeUrl,
  YOUTUBE_API_HOSTS,
  type OutboundFetchOptions,
} from "./fetch";
export { DEFAULT_YOUTUBE_CLIENTS, needsPoToken, parseClientList, type InnerTubeClient } from "./clients";
export { createPotProvider, PotError, withPoToken, type PotProvider, type PotProviderOptions } from "./pot";
export { createEgress, type Egress, type Exit } from "./egress";
export { readPlayerResponse, type PlayerDetails, type PlayerVerdict, type RawTrack } from "./player-response";
export { cookieHeaderFromNetscape, readCookieFile } from "./cookies";
