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
export {
  cleanText,
  decodeEntities,
  parseJson3,
  parseSrv3,
  parseTimedtext,
  parseTranscriptXml,
  parseVtt,
  sniffFormat,
  TimedtextParseError,
  type Cue,
  type TimedtextFormat,
} from "./timedtext";
export { dedupe, isRollingTrack, longestOverlap, repeatedNgramCount, tidy } from "./dedup";
