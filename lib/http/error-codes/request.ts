// The closed list's 400s to 408s (its whole: ../error-codes.ts): the request cannot be read, who asks may not act,
// or what it names is not there.
import type { ErrorCodeInfo } from "./info";

export const REQUEST_CODES = {
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
    meaning: "an OAuth authorization asks for an unknown scope (the scopes are 'api' and 'extension')",
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
} as const satisfies Record<string, ErrorCodeInfo>;
