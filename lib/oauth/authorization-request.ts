import { canonicalResource, grantedScope } from "@/lib/oauth/config";
import { findConsentClient, type ConsentClient } from "@/lib/oauth/authorize";
import { ApiError } from "@/lib/http/errors";

export interface AuthorizationRequest {
  consent: ConsentClient;
  codeChallenge: string;
  scope: string;
  resource: string;
  state: string | null;
}

export type CheckedAuthorizationRequest =
  { ok: true; request: AuthorizationRequest } | { ok: false; error: string; description: string };

const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The authorization endpoint's query (RFC 6749 4.1.1, RFC 7636, RFC 8707), checked in full before the
 * consent page is shown. Any problem is for our own error page: the browser goes to the client's
 * redirect URI only after a valid request the person has seen (RFC 9700 4.11.2), so an unapproved or
 * malicious client cannot use this endpoint as an open redirector.
 */
export async function checkAuthorizationRequest(
  query: Record<string, string | null>,
): Promise<CheckedAuthorizationRequest> {
  const fail = (error: string, description: string): CheckedAuthorizationRequest => ({ ok: false, error, description });
  let consent: ConsentClient;
  try {
    consent = await findConsentClient(query.client_id, query.redirect_uri);
  } catch (error) {
    if (error instanceof ApiError) return fail(error.code, error.detail);
    throw error;
  }
  if (query.response_type !== "code") return fail("unsupported_response_type", "The only response_type is 'code'.");
  const challenge = query.code_challenge;
  if (!challenge || !PKCE_CHALLENGE.test(challenge))
    return fail("invalid_request", "PKCE is required: send code_challenge (S256).");
  if ((query.code_challenge_method ?? "S256") !== "S256")
    return fail("invalid_request", "code_challenge_method must be S256.");
  const scope = grantedScope(query.scope);
  if (!scope) return fail("invalid_scope", "Unknown scope; the only scope is 'api'.");
  const resource = canonicalResource(query.resource);
  if (!resource) return fail("invalid_target", "Unknown resource.");
  if (query.state !== null && query.state !== undefined && query.state.length > 2048)
    return fail("invalid_request", "state is longer than 2048 characters.");
  return { ok: true, request: { consent, codeChallenge: challenge, scope, resource, state: query.state ?? null } };
}
