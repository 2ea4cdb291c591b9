import { defineEndpoint } from "@/lib/http/endpoint";
import {
  authorizeGrantRequestSchema,
  connectionListSchema,
  connectionParamsSchema,
  connectionRevokedSchema,
  authorizeGrantResponseSchema,
  deviceApproveRequestSchema,
  deviceApproveResponseSchema,
  deviceCodeRequestSchema,
  deviceCodeResponseSchema,
  deviceTokenRequestSchema,
  emptySchema,
  registerRequestSchema,
  registerResponseSchema,
  revokeRequestSchema,
  serverMetadataSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from "@/lib/oauth/schemas";

const device = "Device flow";
const oauth = "OAuth";

export const deviceCodeEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/device/code",
  tag: device,
  summary: "Start a device login (RFC 8628 device authorization)",
  description:
    "No body needed. An optional `client_id` (form-encoded or JSON) names the program and is shown to the person approving. The person opens `verification_uri` and enters `user_code`; the program polls POST /v1/device/token every `interval` seconds.",
  auth: "none",
  rateLimit: "deviceCode",
  body: deviceCodeRequestSchema,
  oauth: { body: "form or json" },
  response: deviceCodeResponseSchema,
  errors: {
    400: "invalid_request, invalid_scope, unauthorized_client (a registered client without the device grant), or invalid_client (a client_id shaped like a registered one, vci_…, that no client holds)",
  },
});

export const deviceTokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/device/token",
  tag: device,
  summary: "Poll a device login for its tokens",
  description:
    "Before approval 400 `authorization_pending`; polling faster than `interval` 400 `slow_down` (the interval grows by 5 s); `expired_token`, `access_denied`, and `invalid_grant` for a used or unknown code. After approval the tokens, exactly once. The same poll is accepted as the RFC 8628 grant at POST /oauth/token. " +
    "Deviation from the contract's 422: a body without `device_code` (e.g. `{}`) is 400 `invalid_request` (RFC 8628 3.5, RFC 6749 5.2), because device-flow clients read every failure of this poll as an RFC error object.",
  auth: "none",
  rateLimit: "oauthToken",
  body: deviceTokenRequestSchema,
  oauth: { body: "form or json" },
  response: tokenResponseSchema,
  errors: { 400: "authorization_pending, slow_down, expired_token, access_denied, invalid_grant or invalid_request" },
});

export const deviceApproveEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/device/approve",
  tag: device,
  summary: "Approve a device login (signed-in user)",
  description:
    "The code is matched whatever its case, dashes or spaces. Attempts are rate-limited per user and per address.",
  auth: "grants",
  rateLimit: "deviceVerify",
  body: deviceApproveRequestSchema,
  response: deviceApproveResponseSchema,
  errors: { 400: "Not a code (invalid_user_code)", 404: "No pending request has this code" },
});

export const deviceDenyEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/device/deny",
  tag: device,
  summary: "Deny a device login (signed-in user)",
  description: "The program's next poll answers `access_denied`.",
  auth: "grants",
  rateLimit: "deviceVerify",
  body: deviceApproveRequestSchema,
  response: deviceApproveResponseSchema,
  errors: { 400: "Not a code (invalid_user_code)", 404: "No pending request has this code" },
});

export const metadataEndpoint = defineEndpoint({
  method: "GET",
  path: "/.well-known/oauth-authorization-server",
  tag: oauth,
  summary: "Authorization server metadata (RFC 8414)",
  auth: "none",
  rateLimit: "publicRead",
  response: serverMetadataSchema,
});

export const registerEndpoint = defineEndpoint({
  method: "POST",
  path: "/oauth/register",
  tag: oauth,
  summary: "Register a client (RFC 7591 dynamic registration)",
  description:
    "Public clients (token_endpoint_auth_method `none`, the default) use PKCE only; `client_secret_basic` or `client_secret_post` clients get a `client_secret`, once. http redirect URIs are allowed only for loopback; native apps may use a reverse-domain scheme. " +
    "Deviation from the contract's 422: invalid metadata, a missing `redirect_uris` included, is 400 `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 3.2.2), because MCP connectors and other OAuth clients register themselves and read only RFC 7591's error object.",
  auth: "none",
  rateLimit: "oauthRegister",
  body: registerRequestSchema,
  oauth: { body: "form or json" },
  status: 201,
  response: registerResponseSchema,
  errors: { 400: "invalid_redirect_uri, invalid_client_metadata or invalid_request" },
});

export const authorizeEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/oauth/authorize",
  tag: oauth,
  summary: "Approve or deny a connector (signed-in user, from the consent page)",
  description:
    "Validates the (client_id, redirect_uri) pair (exact match; a loopback redirect URI may use any port), creates a one-time authorization code bound to the user, the PKCE challenge, the scope and the resource, and returns the redirect the browser follows back to the client, with `code`, `state` and `iss`, or with `error` (`access_denied` on deny; `invalid_scope`, `invalid_target`) as RFC 6749 4.1.2.1 has it. Only an unknown client or redirect URI is answered here.",
  auth: "grants",
  rateLimit: "account",
  body: authorizeGrantRequestSchema,
  response: authorizeGrantResponseSchema,
  errors: { 400: "Unknown client (invalid_client) or redirect URI (invalid_redirect_uri)" },
});

export const tokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/oauth/token",
  tag: oauth,
  summary: "Token endpoint (RFC 6749): authorization_code with PKCE, refresh_token, device_code",
  description:
    "Form-encoded. Codes are single-use and valid 10 minutes; reusing one revokes every token issued from it. Refresh tokens rotate; replaying a used one revokes the whole grant. Answers are never cached (Cache-Control: no-store).",
  auth: "none",
  rateLimit: "oauthToken",
  body: tokenRequestSchema,
  oauth: { body: "form" },
  response: tokenResponseSchema,
  errors: {
    400: "RFC 6749 5.2 error (invalid_grant, invalid_request, unsupported_grant_type, …)",
    401: "invalid_client",
  },
});

export const revokeEndpoint = defineEndpoint({
  method: "POST",
  path: "/oauth/revoke",
  tag: oauth,
  summary: "Revoke a token (RFC 7009)",
  description: "Revoking a refresh token ends the whole grant. Unknown tokens answer 200 too.",
  auth: "none",
  rateLimit: "oauthToken",
  body: revokeRequestSchema,
  oauth: { body: "form" },
  response: emptySchema,
  errors: { 400: "invalid_request", 401: "invalid_client" },
});

export const listConnectionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/connections",
  tag: "Connected apps",
  summary: "List the caller's connected apps (OAuth connectors and device logins)",
  auth: "connections",
  rateLimit: "account",
  response: connectionListSchema,
});

export const revokeConnectionEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/me/connections/{id}",
  tag: "Connected apps",
  summary: "Disconnect an app: every token of the grant stops working",
  auth: "connections",
  rateLimit: "account",
  params: connectionParamsSchema,
  response: connectionRevokedSchema,
  errors: { 404: "No connected app with this id" },
});
