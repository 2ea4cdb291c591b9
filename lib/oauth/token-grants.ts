import { createHash, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { DEVICE_GRANT, GRANT_TYPES, canonicalResource, currentResource, grantedScope } from "@/lib/oauth/config";
import { OAuthError } from "@/lib/oauth/errors";
import { authenticateClient } from "@/lib/oauth/client-auth";
import { issueTokens, type TokenResponse } from "@/lib/oauth/issue-tokens";
import { pollDeviceCode } from "@/lib/oauth/device-token";
import { revokeFamily } from "@/lib/oauth/revoke";
import type { tokenRequestSchema } from "@/lib/oauth/schemas";
import type { OAuthClient } from "@/lib/generated/prisma/client";

type TokenRequest = z.output<typeof tokenRequestSchema>;

/**
 * POST /oauth/token: the three grants (RFC 6749 4.1.3 with RFC 7636, RFC 6749 6, RFC 8628 3.4). A
 * registered client gets only the grants it registered (RFC 7591 2: else unauthorized_client); a device
 * login's program that is not a registered client (the CLI's free-text client_id) only polls its code.
 */
export async function exchangeToken(request: Request, body: TokenRequest): Promise<TokenResponse> {
  const client = await authenticateClient(request, body);
  if (
    client &&
    body.grant_type &&
    (GRANT_TYPES as readonly string[]).includes(body.grant_type) &&
    !client.grantTypes.includes(body.grant_type)
  ) {
    throw new OAuthError(
      "unauthorized_client",
      `This client did not register the ${body.grant_type} grant (its grant_types: ${client.grantTypes.join(", ")}).`,
    );
  }
  switch (body.grant_type) {
    case "authorization_code":
      return authorizationCodeGrant(client, body);
    case "refresh_token":
      return refreshTokenGrant(client, body);
    case DEVICE_GRANT:
      if (!body.device_code) throw new OAuthError("invalid_request", "device_code is required.");
      return pollDeviceCode(body.device_code);
    case undefined:
      throw new OAuthError("invalid_request", "grant_type is required.");
    default:
      throw new OAuthError(
        "unsupported_grant_type",
        "Supported grants: authorization_code, refresh_token, and the device code grant.",
      );
  }
}

function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

async function authorizationCodeGrant(client: OAuthClient | null, body: TokenRequest): Promise<TokenResponse> {
  if (!body.code || !body.redirect_uri) throw new OAuthError("invalid_request", "code and redirect_uri are required.");
  if (!body.code_verifier) throw new OAuthError("invalid_request", "code_verifier is required (PKCE with S256).");
  if (!client) throw new OAuthError("invalid_client", "Send the client_id the code was issued to.");
  const db = await getDb();
  const code = await db.oAuthAuthorizationCode.findUnique({ where: { codeHash: sha256Hex(body.code) } });
  if (!code) throw new OAuthError("invalid_grant", "The authorization code is unknown.");
  if (code.usedAt) {
    // A code presented twice was stolen or replayed: everything issued from it stops working.
    await revokeFamily({ codeId: code.id });
    throw new OAuthError(
      "invalid_grant",
      "The authorization code has already been used; the tokens issued from it are revoked.",
    );
  }
  if (code.clientId !== client.id)
    throw new OAuthError("invalid_grant", "The authorization code was issued to another client.");
  if (code.expiresAt.getTime() <= Date.now())
    throw new OAuthError("invalid_grant", "The authorization code has expired.");
  if (code.redirectUri !== body.redirect_uri)
    throw new OAuthError("invalid_grant", "redirect_uri differs from the one in the authorization request.");
  if (!pkceMatches(body.code_verifier, code.codeChallenge))
    throw new OAuthError("invalid_grant", "The code_verifier does not match the code_challenge.");
  if (body.resource !== undefined && canonicalResource(body.resource) !== currentResource(code.resource)) {
    throw new OAuthError("invalid_target", "The resource differs from the one that was authorised.");
  }
  const issued = await db.$transaction(async (tx) => {
    const used = await tx.oAuthAuthorizationCode.updateMany({
      where: { id: code.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (used.count !== 1) return null;
    return issueTokens(tx, {
      userId: code.userId,
      clientId: client.id,
      scope: code.scope ?? "api",
      resource: currentResource(code.resource),
      codeId: code.id,
      workspaceId: code.workspaceId,
    });
  });
  if (!issued) {
    await revokeFamily({ codeId: code.id });
    throw new OAuthError(
      "invalid_grant",
      "The authorization code has already been used; the tokens issued from it are revoked.",
    );
  }
  return issued;
}

async function refreshTokenGrant(client: OAuthClient | null, body: TokenRequest): Promise<TokenResponse> {
  if (!body.refresh_token) throw new OAuthError("invalid_request", "refresh_token is required.");
  const db = await getDb();
  const row = await db.oAuthToken.findUnique({ where: { refreshTokenHash: sha256Hex(body.refresh_token) } });
  if (!row || row.revokedAt) throw new OAuthError("invalid_grant", "The refresh token is unknown or revoked.");
  if (row.clientId && row.clientId !== client?.id)
    throw new OAuthError("invalid_grant", "The refresh token was issued to another client.");
  if (row.refreshUsedAt) {
    // Rotation: a refresh token works once. Its replay means two parties hold it; end the whole grant.
    await revokeFamily({ familyId: row.familyId, id: row.id });
    throw new OAuthError(
      "invalid_grant",
      "The refresh token has already been used; every token of this grant is revoked.",
    );
  }
  if (!row.refreshExpiresAt || row.refreshExpiresAt.getTime() <= Date.now())
    throw new OAuthError("invalid_grant", "The refresh token has expired.");
  let scope = row.scope ?? "api";
  if (body.scope !== undefined) {
    const asked = grantedScope(body.scope);
    const held = new Set(scope.split(" "));
    if (!asked || !asked.split(" ").every((name) => held.has(name)))
      throw new OAuthError("invalid_scope", "A refresh cannot widen the scope.");
    scope = asked;
  }
  if (body.resource !== undefined && canonicalResource(body.resource) !== currentResource(row.resource)) {
    throw new OAuthError("invalid_target", "The resource differs from the one that was authorised.");
  }
  const issued = await db.$transaction(async (tx) => {
    const used = await tx.oAuthToken.updateMany({
      where: { id: row.id, refreshUsedAt: null, revokedAt: null },
      data: { refreshUsedAt: new Date() },
    });
    if (used.count !== 1) return null;
    return issueTokens(tx, {
      userId: row.userId,
      clientId: row.clientId,
      scope,
      resource: currentResource(row.resource),
      familyId: row.familyId ?? undefined,
      codeId: row.codeId ?? undefined,
      deviceLabel: row.deviceLabel,
      workspaceId: row.workspaceId,
    });
  });
  if (!issued) {
    await revokeFamily({ familyId: row.familyId, id: row.id });
    throw new OAuthError(
      "invalid_grant",
      "The refresh token has already been used; every token of this grant is revoked.",
    );
  }
  return issued;
}
