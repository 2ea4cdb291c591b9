// The closed list's 413s to 431s (its whole: ../error-codes.ts): too large, of a kind not taken, not to be acted on,
// or too often.
import type { ErrorCodeInfo } from "./info";

export const INPUT_CODES = {
  // 413, 415, 416
  payload_too_large: { status: 413, retryable: false, meaning: "the body is larger than this endpoint accepts" },
  upload_space_exceeded: {
    status: 413,
    retryable: false,
    meaning: "the file does not fit in what is left of the user's upload space",
  },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    meaning: "the body's Content-Type or format is not one this endpoint reads",
  },
  content_type_mismatch: {
    status: 415,
    retryable: false,
    meaning: "the upload's Content-Type is not the one its URL was signed for",
  },
  export_too_large: {
    status: 413,
    retryable: false,
    meaning: "the selection holds more transcripts than one export may (EXPORT_MAX_NOTES); export it in parts",
  },
  range_not_satisfiable: { status: 416, retryable: false, meaning: "the requested byte range lies outside the file" },
  // 422: the input is well-formed but cannot be acted on (answered as one HTTPValidationError item)
  unsupported_source: { status: 422, retryable: false, meaning: "the platform cannot serve this item" },
  domain_unverified: {
    status: 422,
    retryable: false,
    meaning:
      "the domain's DNS has no TXT record with the team's verification value (at _verbatim.<domain> or the domain); publish it and ask again",
  },
  video_unplayable: {
    status: 422,
    retryable: false,
    meaning: "the platform will not play it; detail carries the platform's own reason",
  },
  url_not_allowed: {
    status: 422,
    retryable: false,
    meaning: "the URL is not one this server fetches (scheme, port, credentials)",
  },
  address_not_allowed: { status: 422, retryable: false, meaning: "the URL leads to an internal or reserved address" },
  response_too_large: {
    status: 422,
    retryable: false,
    meaning: "the file behind the URL is larger than this server fetches",
  },
  feed_invalid: {
    status: 422,
    retryable: false,
    meaning: "the podcast feed is not well-formed, or too large or complex to read",
  },
  not_a_feed: { status: 422, retryable: false, meaning: "the URL is a web page, not a podcast feed or an audio file" },
  // 429, 431
  rate_limited: { status: 429, retryable: true, meaning: "too many requests; Retry-After says when to try again" },
  invitations_exhausted: {
    status: 429,
    retryable: true,
    meaning: "the team sent the most invitations allowed in a day (TEAM_INVITATIONS_PER_DAY); Retry-After says when",
  },
  upload_quota_exceeded: {
    status: 429,
    retryable: true,
    meaning: "the user keeps the most uploads allowed at once; Retry-After says when the oldest expires",
  },
  headers_too_large: { status: 431, retryable: false, meaning: "the request line and headers are larger than 16 KiB" },
} as const satisfies Record<string, ErrorCodeInfo>;
