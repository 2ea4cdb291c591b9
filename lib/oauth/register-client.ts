import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { GRANT_TYPES, grantedScope, UNKNOWN_SCOPE } from "@/lib/oauth/config";
import { OAuthError } from "@/lib/oauth/errors";
import { redirectUriProblem } from "@/lib/oauth/redirect-uri";
import { TOKEN_ENDPOINT_AUTH_METHODS, type registerRequestSchema } from "@/lib/oauth/schemas";
import type { z } from "zod";

export const CLIENT_ID_PREFIX = "vci_";
export const CLIENT_SECRET_PREFIX = "vcs_";
// Every grant the metadata advertises (RFC 8414 grant_types_supported) can be registered (RFC 7591 2).
const ALLOWED_GRANTS = new Set<string>(GRANT_TYPES);

/** POST /oauth/register (RFC 7591): a public client (PKCE only) unless it asks to authenticate with a secret. */
export async function registerClient(input: z.output<typeof registerRequestSchema>) {
  const method = input.token_endpoint_auth_method ?? "none";
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}.`,
    );
  }
  const grantTypes = [...new Set(input.grant_types ?? ["authorization_code", "refresh_token"])];
  if (grantTypes.length === 0 || !grantTypes.every((grant) => ALLOWED_GRANTS.has(grant))) {
    throw new OAuthError("invalid_client_metadata", `grant_types may be ${GRANT_TYPES.join(", ")}.`);
  }
  if (input.response_types && !input.response_types.every((type) => type === "code")) {
    throw new OAuthError("invalid_client_metadata", "The only response type is 'code'.");
  }
  // RFC 7591 2: redirect URIs are for the redirect-based grant; a device-grant-only client needs none.
  if (grantTypes.includes("authorization_code") && input.redirect_uris.length === 0)
    throw new OAuthError("invalid_redirect_uri", "Register at least one redirect URI.");
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }
  const scope = grantedScope(input.scope);
  if (!scope) throw new OAuthError("invalid_client_metadata", UNKNOWN_SCOPE);
  if (input.client_uri && !/^https?:\/\//i.test(input.client_uri))
    throw new OAuthError("invalid_client_metadata", "client_uri must be an http(s) URL.");

  const clientId = randomSecret(CLIENT_ID_PREFIX, 16);
  const secret = method === "none" ? null : randomSecret(CLIENT_SECRET_PREFIX);
  const db = await getDb();
  const row = await db.oAuthClient.create({
    data: {
      id: clientId,
      name: input.client_name?.trim() || null,
      redirectUris: input.redirect_uris,
      tokenEndpointAuthMethod: method,
      secretHash: secret ? sha256Hex(secret) : null,
      grantTypes,
      scope,
      clientUri: input.client_uri ?? null,
    },
  });
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...(row.name ? { client_name: row.name } : {}),
    ...(row.clientUri ? { client_uri: row.clientUri } : {}),
    redirect_uris: row.redirectUris,
    grant_types: row.grantTypes,
    response_types: grantTypes.includes("authorization_code") ? ["code"] : [],
    token_endpoint_auth_method: method,
    scope,
  };
}
