// Request examples for the API reference, so "Try it out" sends something that works with the reader's key.
// Real sources: a YouTube video with English captions ("Surface Go Review", the video whose recorded
// InnerTube answer the YouTube fake replays, test/fakes/youtube/README.md) and NPR's Planet Money feed.

export const EXAMPLE_VIDEO_URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
export const EXAMPLE_FEED_URL = "https://feeds.npr.org/510289/podcast.xml";

const PKCE_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"; // RFC 7636 appendix B
const REDIRECT_URI = "http://127.0.0.1:33418/callback";

/** Request body examples, by "METHOD path". A test checks each against the endpoint's own body schema. */
export const REQUEST_BODY_EXAMPLES: Record<string, Record<string, unknown>> = {
  "POST /v1/transcript": { url: EXAMPLE_VIDEO_URL, lang: "en", format: "srt" },
  "POST /v1/publish": { url: EXAMPLE_VIDEO_URL, lang: "en" },
  "POST /v1/exports": { history: { platform: "youtube", q: null }, format: "md" },
  "POST /v1/exports/destinations": {
    kind: "notion",
    name: "Research notes",
    database_id: "0f2b5c1e-58c4-4a8d-9f6e-3b1a2c4d5e6f",
    token: "ntn_example_integration_token",
  },
  "PATCH /v1/transcripts/{id}": {
    segments: [
      { start: 0, end: 2.4, text: "Welcome back to the channel." },
      { start: 2.4, end: 5.1, text: "Today Dr. Nguyen explains the results." },
    ],
  },
  "POST /v1/import": { url: EXAMPLE_FEED_URL, lang: "en" },
  "POST /v1/batches": {
    text: `url,title\n${EXAMPLE_VIDEO_URL},A talk\nhttps://x.com/NASA/status/1785701153231093968,NASA`,
    lang: "en",
  },
  "POST /v1/import/{batch_id}/items/retry": { guid: "https://example.com/episodes/42" },
  "POST /v1/follows": { url: EXAMPLE_FEED_URL, lang: "en", backfill: 1 },
  "PATCH /v1/follows/{id}": { state: "paused" },
  "POST /v1/alerts": { query: '"interest rates" inflation -bitcoin', scope: { kind: "library" }, email: true },
  "POST /v1/alerts/preview": {
    query: "when will borrowing get cheaper",
    mode: "meaning",
    closeness: "close",
    scope: { kind: "library" },
  },
  "PATCH /v1/alerts/{id}": { paused: true },
  "POST /v1/alerts/{id}/read": {},
  "POST /v1/alerts/{id}/follows": { url: "https://feeds.example.com/harbour-radio.rss", lang: "en" },
  "POST /v1/me/webhooks": {
    url: "https://example.com/hooks/verbatim",
    event_types: ["transcript.completed", "transcript.failed"],
  },
  "POST /v1/podcast/resolve": { url: EXAMPLE_FEED_URL },
  "POST /v1/uploads/sign": { filename: "interview.mp3", content_type: "audio/mpeg" },
  "POST /v1/checkout": { tier: "pro" },
  "POST /v1/me/subscription/change": { tier: "ultra" },
  "POST /v1/device/code": { client_id: "verbatim-cli" },
  "POST /v1/device/token": { device_code: "the device_code from POST /v1/device/code" },
  "POST /v1/device/approve": { user_code: "BDWP-HQPK" },
  "PUT /v1/me/workspace": { workspace_id: null },
  "POST /v1/device/deny": { user_code: "BDWP-HQPK" },
  "POST /v1/oauth/authorize": {
    client_id: "the client_id from /oauth/register",
    redirect_uri: REDIRECT_URI,
    code_challenge: PKCE_CHALLENGE,
    code_challenge_method: "S256",
    state: "af0ifjsldkj",
    decision: "approve",
  },
  "POST /oauth/register": { redirect_uris: [REDIRECT_URI], client_name: "My MCP client" },
  "POST /oauth/token": {
    grant_type: "authorization_code",
    code: "the code from the redirect",
    redirect_uri: REDIRECT_URI,
    code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    client_id: "the client_id from /oauth/register",
  },
  "POST /oauth/revoke": { token: "vrt_…", token_type_hint: "refresh_token" },
  "POST /v1/teams": { name: "Newsroom", slug: "newsroom" },
  "PATCH /v1/teams/{team_id}": { name: "Evening newsroom" },
  "POST /v1/teams/{team_id}/transfer": { user_id: "cm1a2b3c4d5e6f7g8h9i0j1k" },
  "PATCH /v1/teams/{team_id}/members/{user_id}": { role: "admin" },
  "POST /v1/teams/{team_id}/invitations": { email: "reporter@example.com", role: "member" },
  "POST /v1/teams/{team_id}/keys": {
    name: "Newsroom CMS",
    scopes: ["read", "transcribe"],
    expires_at: "2027-06-30T00:00:00Z",
  },
  "POST /v1/teams/{team_id}/domains": { domain: "example.com", role: "member" },
  "POST /v1/invitations/accept": { token: "q3Wk1b2Yx8mVh0pLr6Zs4Nc9Ue7Tf5Ja1Gd3Hi2Ko0M" },
};

/** Query and path parameter examples, by name (the same meaning wherever the name appears). */
export const PARAMETER_EXAMPLES: Record<string, unknown> = {
  url: EXAMPLE_VIDEO_URL,
  format: "srt",
  limit: 20,
};
