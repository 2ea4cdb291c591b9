// Every machine code the API answers with in `{"detail", "code"}` (or as a 422 item's `type`): its HTTP
// status, whether the same request may work later, and what it means. `new ApiError(code)` takes only these,
// /openapi.json lists them, and the dashboard, the CLI and the typed client read `retryable` from here.
// Imported by browser code and the CLI bundle: keep it free of imports. One file however long the list grows:
// a closed list is read, reviewed and generated from (client/src/error-codes.ts) whole.
// OAuth's token endpoint answers RFC 6749's own `error` strings (lib/oauth); they are not listed here.

export interface ErrorCodeInfo {
  readonly status: number;
  /** The same request may work later (the platform, the network or this server, not the request). */
  readonly retryable: boolean;
  readonly meaning: string;
}

export const ERROR_CODES = {
  // 400: the request itself cannot be read
  bad_request: { status: 400, retryable: false, meaning: "the request is not valid HTTP" },
  invalid_path: {
    status: 400,
    retryable: false,
    meaning: "the request path is not valid percent-encoding or names no resource",
  },
  invalid_text: {
    status: 400,
    retryable: false,
    meaning: "the path or query holds text that cannot be stored (NUL, unpaired surrogate)",
  },
  invalid_body: {
    status: 400,
    retryable: false,
    meaning: "the body cannot be decoded (a cut multipart form, a Server Action's arguments)",
  },
  body_interrupted: { status: 400, retryable: true, meaning: "the request body ended early; send it again" },
  incomplete_upload: {
    status: 400,
    retryable: true,
    meaning: "the upload ended before its declared length; upload the file again",
  },
  invalid_signature: {
    status: 400,
    retryable: false,
    meaning: "a Stripe webhook's Stripe-Signature is missing, wrong or older than 300 s",
  },
  invalid_payload: { status: 400, retryable: false, meaning: "a signed Stripe webhook body is not a Stripe event" },
  invalid_client: {
    status: 400,
    retryable: false,
    meaning: "an OAuth authorization names no client or an unregistered one",
  },
  invalid_redirect_uri: {
    status: 400,
    retryable: false,
    meaning: "an OAuth authorization's redirect URI is not one the client registered",
  },
  invalid_scope: {
    status: 400,
    retryable: false,
    meaning: "an OAuth authorization asks for an unknown scope (the only scope is 'api')",
  },
  invalid_target: { status: 400, retryable: false, meaning: "an OAuth authorization names an unknown resource" },
  invalid_user_code: { status: 400, retryable: false, meaning: "a device-flow user code is not of the form BCDF-GHJK" },
  // 401, 402, 403: who is asking and what they may do
  unauthorized: {
    status: 401,
    retryable: false,
    meaning: "no credential, or not one this server knows; send 'Authorization: Bearer <API key>'",
  },
  invalid_token: { status: 401, retryable: false, meaning: "the credential is not valid or has been revoked" },
  allowance_exhausted: {
    status: 402,
    retryable: false,
    meaning: "the plan's transcription allowance is used up for this period",
  },
  forbidden: {
    status: 403,
    retryable: false,
    meaning: "the credential may not do this (scope, ownership, or a cross-site form)",
  },
  age_restricted: { status: 403, retryable: false, meaning: "the platform only shows the item to signed-in adults" },
  upload_url_invalid: {
    status: 403,
    retryable: false,
    meaning: "the upload URL was altered or is incomplete; sign a new one",
  },
  invitation_email_mismatch: {
    status: 403,
    retryable: false,
    meaning: "the invitation is for another e-mail address, or yours is not verified; sign in with the invited address",
  },
  upload_url_expired: { status: 403, retryable: false, meaning: "the upload URL has expired; sign a new one" },
  sso_required: {
    status: 403,
    retryable: false,
    meaning:
      "the team lets its members act in it only after signing in through its identity provider; sign out and continue with single sign-on",
  },
  // 404
  not_found: { status: 404, retryable: false, meaning: "nothing by that id or path (or not yours)" },
  video_unavailable: {
    status: 404,
    retryable: false,
    meaning: "the video was removed, is private, or the id is wrong",
  },
  podcast_not_found: {
    status: 404,
    retryable: false,
    meaning: "Apple Podcasts or the feed does not list that show or episode",
  },
  invitation_invalid: {
    status: 404,
    retryable: false,
    meaning: "the invitation link is unknown, used, revoked or expired; ask the team for a new one",
  },
  no_billing_account: {
    status: 404,
    retryable: false,
    meaning: "the user has no billing account yet; subscribe first",
  },
  // 405, 408
  method_not_allowed: {
    status: 405,
    retryable: false,
    meaning: "the path does not serve this method; Allow lists those it does",
  },
  request_timeout: { status: 408, retryable: true, meaning: "the request took too long to arrive" },
  // 409: the state of something forbids it now
  live_not_finished: {
    status: 409,
    retryable: true,
    meaning: "a live stream or premiere that has not ended; ask again after it ends",
  },
  transcription_in_progress: {
    status: 409,
    retryable: true,
    meaning: "the history entry is still running; delete it once it has finished or failed",
  },
  transcript_not_complete: {
    status: 409,
    retryable: true,
    meaning: "the transcript is not done yet; publish it once it is",
  },
  already_subscribed: {
    status: 409,
    retryable: false,
    meaning: "the user already has a subscription; change tiers instead",
  },
  no_subscription: { status: 409, retryable: false, meaning: "the user has no subscription to change" },
  unknown_price: {
    status: 409,
    retryable: false,
    meaning: "the subscription is on a price this service does not sell",
  },
  same_tier: { status: 409, retryable: false, meaning: "the subscription is already on that tier" },
  cancel_scheduled: {
    status: 409,
    retryable: false,
    meaning: "the subscription ends at the period end; resume it before changing tiers",
  },
  upload_in_progress: { status: 409, retryable: true, meaning: "another upload to this URL is in progress" },
  upload_exists: {
    status: 409,
    retryable: false,
    meaning: "a file was already uploaded to this URL; sign a new upload",
  },
  webhook_exists: {
    status: 409,
    retryable: false,
    meaning: "the account has an endpoint for this URL already; change that one (its events) or delete it",
  },
  follow_exists: {
    status: 409,
    retryable: false,
    meaning: "the account follows this feed or channel already; change that follow (PATCH) or delete it",
  },
  follow_paused: {
    status: 409,
    retryable: false,
    meaning: "the follow is paused; resume it (PATCH state active) to check it",
  },
  too_many_alerts: {
    status: 409,
    retryable: false,
    meaning: "the account keeps the most alerts its tier allows (ALERT_MAX_FREE, _PRO, _ULTRA); delete one first",
  },
  too_many_follows: {
    status: 409,
    retryable: false,
    meaning: "the account follows the most shows allowed (FOLLOW_MAX_PER_USER); delete one first",
  },
  too_many_webhooks: {
    status: 409,
    retryable: false,
    meaning: "the account has the most webhook endpoints allowed; delete one first",
  },
  too_many_keys: {
    status: 409,
    retryable: false,
    meaning: "the team keeps the most named keys allowed (50); revoke one first",
  },
  webhook_disabled: {
    status: 409,
    retryable: false,
    meaning: "the webhook endpoint is disabled; rotate its secret to enable it",
  },
  too_many_deliveries: {
    status: 409,
    retryable: true,
    meaning: "too many deliveries to this endpoint are still waiting to be sent",
  },
  slug_taken: { status: 409, retryable: false, meaning: "another team has this slug; choose another" },
  last_owner: {
    status: 409,
    retryable: false,
    meaning: "the team's last owner cannot be lowered, removed or leave; transfer ownership first",
  },
  domain_claimed: { status: 409, retryable: false, meaning: "the team has claimed this domain already" },
  domain_taken: { status: 409, retryable: false, meaning: "another team has verified this domain" },
  too_many_domains: {
    status: 409,
    retryable: false,
    meaning: "the team has claimed the most domains allowed (TEAM_MAX_DOMAINS); delete one first",
  },
  already_member: { status: 409, retryable: false, meaning: "the person is a member of the team already" },
  too_many_teams: {
    status: 409,
    retryable: false,
    meaning: "the person owns the most teams allowed (TEAM_MAX_OWNED); delete or hand one over first",
  },
  too_many_members: {
    status: 409,
    retryable: false,
    meaning: "the team has the most members allowed (TEAM_MAX_MEMBERS), pending invitations included",
  },
  too_many_invitations: {
    status: 409,
    retryable: false,
    meaning: "the team has the most pending invitations allowed (TEAM_MAX_PENDING_INVITATIONS); revoke one first",
  },
  subscription_active: {
    status: 409,
    retryable: false,
    meaning: "the team has a paid subscription; cancel it before deleting the team",
  },
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
  // 5xx: this server or the platform behind it
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
  database_unavailable: { status: 503, retryable: true, meaning: "the database is not reachable right now" },
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
  // A job's own failures: GET /v1/jobs/{id} `error.code`, transcript.failed and import.completed events. The status
  // is the one the same failure has as an answer; retryable says whether asking for it again may work.
  unsupported_media: {
    status: 422,
    retryable: false,
    meaning: "the file is not audio or video this server can read",
  },
  media_too_large: { status: 422, retryable: false, meaning: "the file is larger than this server transcribes" },
  media_too_long: { status: 422, retryable: false, meaning: "the audio is longer than this server transcribes" },
  no_speech: { status: 422, retryable: false, meaning: "no speech was recognised in the audio" },
  invalid_source: { status: 422, retryable: false, meaning: "the import's URL cannot be imported" },
  empty_source: {
    status: 422,
    retryable: false,
    meaning: "there is nothing to import there: no episodes with audio, or no videos",
  },
  upload_not_found: { status: 404, retryable: false, meaning: "the uploaded file is gone (expired or deleted)" },
  download_failed: { status: 502, retryable: true, meaning: "the audio could not be downloaded from its source" },
  asr_failed: {
    status: 502,
    retryable: true,
    meaning: "speech recognition failed or could not be reached (its server, a timeout, the audio tools)",
  },
  asr_rejected: {
    status: 502,
    retryable: false,
    meaning: "the speech-recognition provider refused the audio or this server's credentials",
  },
  asr_unavailable: {
    status: 503,
    retryable: false,
    meaning: "speech recognition cannot run on this server (a tool it needs is missing)",
  },
  probe_failed: { status: 500, retryable: false, meaning: "this server could not inspect the file (ffprobe failed)" },
  convert_failed: { status: 500, retryable: false, meaning: "this server could not convert the audio (ffmpeg failed)" },
  dispatch_failed: { status: 503, retryable: true, meaning: "the job could not be handed to the job runner (Inngest)" },
  unknown_pipeline: {
    status: 500,
    retryable: true,
    meaning: "the process that picked the job up does not know its kind (a deploy in progress)",
  },
  invalid_job: { status: 500, retryable: false, meaning: "the job's stored input is not valid" },
  invalid_job_context: {
    status: 500,
    retryable: false,
    meaning: "the job's stored context does not fit its pipeline (written by another version)",
  },
  invalid_step_output: { status: 500, retryable: false, meaning: "a step of the job returned something unstorable" },
  attempts_exhausted: {
    status: 500,
    retryable: true,
    meaning: "the job failed on every attempt without a reason (e.g. its process crashed)",
  },
  job_failed: {
    status: 500,
    retryable: true,
    meaning: "the job failed on this server for a reason it has no code for",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** Whether asking again may work, for a code an API answer carried (unknown codes: no). */
export function isRetryableCode(code: string | null | undefined): boolean {
  return isErrorCode(code) && ERROR_CODES[code].retryable;
}
