// The closed list's 5xx (its whole: ../error-codes.ts): this server or the platform behind it.
import type { ErrorCodeInfo } from "./info";

export const SERVER_CODES = {
  internal_error: {
    status: 500,
    retryable: true,
    meaning: "something failed on this server; try again, and contact support if it keeps happening",
  },
  upstream_failed: { status: 502, retryable: true, meaning: "the platform or tool failed or answered unexpectedly" },
  upstream_dns_failed: {
    status: 502,
    retryable: false,
    meaning: "the host's name could not be resolved (DNS): a wrong host, or this server has no working DNS or internet",
  },
  upstream_refused: {
    status: 502,
    retryable: false,
    meaning: "the connection was refused: nothing listens there, or the configured proxy is down",
  },
  upstream_tls_failed: {
    status: 502,
    retryable: false,
    meaning:
      "no secure connection could be made: the certificate was not accepted (an intercepting proxy needs NODE_EXTRA_CA_CERTS)",
  },
  too_many_redirects: {
    status: 502,
    retryable: true,
    meaning: "the URL redirected more times than this server follows",
  },
  upstream_blocked: {
    status: 503,
    retryable: true,
    meaning: "the platform refused this server (bot check); retry after Retry-After",
  },
  upstream_rate_limited: {
    status: 503,
    retryable: true,
    meaning: "the platform rate-limited this server; retry after Retry-After",
  },
  po_token_required: {
    status: 503,
    // Asking again does not help until the operator configures a token provider (its sentence says so).
    retryable: false,
    meaning: "the platform wants a proof-of-origin token and none is configured (YOUTUBE_POT_PROVIDER_URL)",
  },
  database_unavailable: {
    status: 503,
    retryable: true,
    meaning: "the database cannot answer right now: unreachable, restarting, or too busy to finish in time",
  },
  search_timed_out: {
    status: 503,
    retryable: true,
    meaning:
      "the search found nothing to answer within its deadline (SEARCH_TIMEOUT_MS); retry after Retry-After, or use more specific words",
  },
  asr_not_configured: {
    status: 503,
    retryable: false,
    meaning: "the source needs speech recognition, which this server has not configured",
  },
  asr_model_missing: {
    status: 503,
    retryable: false,
    meaning: "the local speech model is not on this server and could not be downloaded (ASR_LOCAL_MODEL_PATH)",
  },
  no_captions_source: {
    status: 503,
    retryable: false,
    meaning: "this kind of source has no captions; its transcript comes from speech recognition",
  },
  billing_not_configured: { status: 503, retryable: false, meaning: "billing is not configured on this server" },
  webhook_not_configured: {
    status: 503,
    retryable: false,
    meaning: "STRIPE_WEBHOOK_SECRET is not set, so billing webhooks cannot be verified",
  },
  meaning_not_configured: {
    status: 503,
    retryable: false,
    meaning: "search by meaning is off on this server (SEARCH_EMBEDDER=off), so an alert by meaning cannot be kept",
  },
  destination_not_configured: {
    status: 503,
    retryable: false,
    meaning: "folder export destinations are off on this server (EXPORT_FOLDER_ROOT is not set)",
  },
  storage_not_configured: { status: 503, retryable: false, meaning: "upload storage is misconfigured on this server" },
  inngest_not_configured: {
    status: 503,
    retryable: false,
    meaning: "Inngest is not configured on this server; jobs run on the local runner",
  },
  upstream_timeout: { status: 504, retryable: true, meaning: "the platform or URL did not answer in time" },
  insufficient_storage: {
    status: 507,
    retryable: true,
    meaning: "this server has no room to store the file right now",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
