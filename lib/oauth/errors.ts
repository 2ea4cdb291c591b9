import { NextResponse } from "next/server";

// Errors of the OAuth and device-flow endpoints: RFC 6749 5.2 / RFC 8628 3.5 / RFC 7591 3.2.2 bodies
// `{error, error_description}` (not the API's `{detail, code}`), never cached.

const OAUTH_ERROR = Symbol.for("verbatim.OAuthError");

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "authorization_pending"
  | "slow_down"
  | "access_denied"
  | "expired_token"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "unsupported_token_type"
  | "rate_limited";

export class OAuthError extends Error {
  readonly [OAUTH_ERROR] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[OAUTH_ERROR] === true;
  }

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function oauthErrorResponse(error: OAuthError): NextResponse {
  const headers: Record<string, string> = { ...NO_STORE, ...error.headers };
  // RFC 6749 5.2: a failed client authentication answers 401 with the scheme the client used.
  if (error.status === 401 && !headers["WWW-Authenticate"]) headers["WWW-Authenticate"] = 'Basic realm="verbatim"';
  return NextResponse.json(
    { error: error.error, error_description: error.description },
    { status: error.status, headers },
  );
}
