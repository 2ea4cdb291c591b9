import type { z } from "zod";
import { getDb } from "@/lib/db/client";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { ApiError } from "@/lib/http/errors";
import { AUTHORIZATION_CODE_SECONDS, canonicalResource, grantedScope, issuer, UNKNOWN_SCOPE } from "@/lib/oauth/config";
import { matchRedirectUri } from "@/lib/oauth/redirect-uri";
import { grantWorkspaceId } from "@/lib/auth/workspaces";
import type { authorizeGrantRequestSchema } from "@/lib/oauth/schemas";

export const AUTHORIZATION_CODE_PREFIX = "vac_";

export interface ConsentClient {
  clientId: string;
  name: string | null;
  redirectUri: string;
  redirectHost: string;
}

/**
 * The registered client and redirect URI a consent request names, or an error for the person: the
 * browser is never sent to a redirect URI that is not registered for the client (RFC 6749 4.1.2.1).
 */
export async function findConsentClient(clientId: unknown, redirectUri: unknown): Promise<ConsentClient> {
  // (The consent page passes its query through unparsed: no NUL or other control character reaches the database.)
  if (
    typeof clientId !== "string" ||
    clientId.length === 0 ||
    clientId.length > 200 ||
    /[\u0000-\u001f\ud800-\udfff]/.test(clientId)
  ) {
    throw new ApiError("invalid_client", "The request names no client (client_id).");
  }
  const db = await getDb();
  const client = await db.oAuthClient.findUnique({ where: { id: clientId } });
  if (!client) throw new ApiError("invalid_client", "This app is not registered here (unknown client_id).");
  const matched = typeof redirectUri === "string" ? matchRedirectUri(redirectUri, client.redirectUris) : null;
  if (!matched) throw new ApiError("invalid_redirect_uri", "The redirect URI is not one this app registered.");
  const url = new URL(matched);
  return { clientId: client.id, name: client.name, redirectUri: matched, redirectHost: url.host || url.protocol };
}

/** The redirect URI with the authorization response's parameters added (RFC 6749 4.1.2); null ones left out. */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== null && value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * POST /v1/oauth/authorize: the signed-in user's decision on the consent page. An unknown client or
 * redirect URI is a 400 here (the browser is never sent to an unregistered address); anything else wrong
 * with the request goes back to the client as the authorization endpoint sends it (RFC 6749 4.1.2.1).
 * Approving creates a one-time code bound to the user, client, redirect URI, PKCE challenge, scope and
 * resource; either way the answer is where the browser goes next (RFC 6749 4.1.2 with RFC 9207's `iss`).
 */
export async function authorize(
  userId: string,
  input: z.output<typeof authorizeGrantRequestSchema>,
  session?: { viaProvider: boolean },
): Promise<{ redirect_to: string }> {
  const consent = await findConsentClient(input.client_id, input.redirect_uri);
  const common = { state: input.state ?? undefined, iss: issuer() };
  const refuse = (error: string, description?: string) => ({
    redirect_to: redirectWith(consent.redirectUri, { error, error_description: description, ...common }),
  });
  if (input.decision === "deny") return refuse("access_denied");
  const workspaceId = await grantWorkspaceId(userId, input.workspace_id, session);
  const scope = grantedScope(input.scope);
  if (!scope) return refuse("invalid_scope", UNKNOWN_SCOPE);
  const resource = canonicalResource(input.resource);
  if (!resource) return refuse("invalid_target", "Unknown resource.");

  const code = randomSecret(AUTHORIZATION_CODE_PREFIX);
  const db = await getDb();
  await db.oAuthAuthorizationCode.create({
    data: {
      codeHash: sha256Hex(code),
      clientId: consent.clientId,
      userId,
      redirectUri: consent.redirectUri,
      codeChallenge: input.code_challenge,
      codeChallengeMethod: input.code_challenge_method,
      scope,
      resource,
      expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_SECONDS * 1000),
      workspaceId,
    },
  });
  return { redirect_to: redirectWith(consent.redirectUri, { code, ...common }) };
}
