import { canonicalResource, grantedScope, issuer, UNKNOWN_SCOPE } from "@/lib/oauth/config";
import { findConsentClient, redirectWith, type ConsentClient } from "@/lib/oauth/authorize";
import { ApiError } from "@/lib/http/errors";
import { getDb } from "@/lib/db/client";

export interface AuthorizationRequest {
  consent: ConsentClient;
  codeChallenge: string;
  scope: string;
  resource: string;
  state: string | null;
}

export type CheckedAuthorizationRequest =
  | { ok: true; request: AuthorizationRequest }
  | {
      ok: false;
      error: string;
      description: string;
      /** The client's redirect URI with the error (RFC 6749 4.1.2.1); absent when the client or URI is unknown. */
      redirectTo?: string;
      /** The client and redirect URI, when both are known (with `redirectTo`). */
      client?: ConsentClient;
    };

const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * The authorization endpoint's query (RFC 6749 4.1.1, RFC 7636, RFC 8707), checked in full before the
 * consent page is shown. An unknown client or a redirect URI it did not register is for our own error page:
 * the browser is never sent to an address the client did not register. Every later problem has `redirectTo`: the
 * client's registered redirect URI with `error`, `error_description`, `state` and RFC 9207's `iss`
 * (RFC 6749 4.1.2.1), since the client is waiting there for an answer and can show or act on it; whether the
 * browser is sent there by itself is errorRedirectFor's decision.
 */
export async function checkAuthorizationRequest(
  query: Record<string, string | null>,
): Promise<CheckedAuthorizationRequest> {
  let consent: ConsentClient;
  try {
    consent = await findConsentClient(query.client_id, query.redirect_uri);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.code, description: error.detail };
    throw error;
  }
  const state = query.state ?? null;
  const fail = (error: string, description: string): CheckedAuthorizationRequest => ({
    ok: false,
    error,
    description,
    redirectTo: redirectWith(consent.redirectUri, { error, error_description: description, state, iss: issuer() }),
    client: consent,
  });
  if (query.response_type !== "code") return fail("unsupported_response_type", "The only response_type is 'code'.");
  const challenge = query.code_challenge;
  if (!challenge || !PKCE_CHALLENGE.test(challenge))
    return fail("invalid_request", "PKCE is required: send code_challenge (S256).");
  if ((query.code_challenge_method ?? "S256") !== "S256")
    return fail("invalid_request", "code_challenge_method must be S256.");
  const scope = grantedScope(query.scope);
  if (!scope) return fail("invalid_scope", UNKNOWN_SCOPE);
  const resource = canonicalResource(query.resource);
  if (!resource) return fail("invalid_target", "Unknown resource.");
  if (state !== null && state.length > 2048) return fail("invalid_request", "state is longer than 2048 characters.");
  return { ok: true, request: { consent, codeChallenge: challenge, scope, resource, state } };
}

/** Whether `userId` has a live grant of `clientId`'s: a consent not since disconnected, revoked or expired. */
export async function approvedBefore(userId: string, clientId: string, now = new Date()): Promise<boolean> {
  const db = await getDb();
  const grant = await db.oAuthToken.findFirst({
    where: {
      userId,
      clientId,
      revokedAt: null,
      OR: [{ refreshUsedAt: null, refreshExpiresAt: { gt: now } }, { accessExpiresAt: { gt: now } }],
    },
    select: { id: true },
  });
  return grant !== null;
}

/**
 * Where a failed authorization request sends the browser by itself: its `redirectTo` only when the signed-in
 * `userId` approved that client before; otherwise null, and the page names the client and where it leads, with
 * a link there the person may follow. Anyone can register a client with any redirect URI (dynamic registration),
 * so redirecting for every client would make this server an open redirector (RFC 9700 4.11.2).
 */
export async function errorRedirectFor(
  checked: CheckedAuthorizationRequest,
  userId: string | null,
): Promise<string | null> {
  if (checked.ok || !checked.redirectTo || !checked.client || !userId) return null;
  return (await approvedBefore(userId, checked.client.clientId)) ? checked.redirectTo : null;
}
