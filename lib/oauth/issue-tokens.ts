import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from "@/lib/oauth/config";
import { OAuthError } from "@/lib/oauth/errors";

export const ACCESS_TOKEN_PREFIX = "vat_";
export const REFRESH_TOKEN_PREFIX = "vrt_";

export interface TokenGrant {
  userId: string;
  clientId: string | null;
  scope: string;
  resource: string;
  /** The family a rotated refresh token continues; a new grant starts one. */
  familyId?: string;
  codeId?: string;
  deviceLabel?: string | null;
  /** The team chosen at consent (null or absent: the person's own account); carried through every rotation. */
  workspaceId?: string | null;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Stores a new access + refresh token pair (hashes only) and returns the plaintexts, once. A grant for a team is
 * issued only while the person is still in it (read in `tx`): a code, a device login or a refresh token of someone
 * removed since gets nothing.
 */
export async function issueTokens(
  tx: Prisma.TransactionClient,
  grant: TokenGrant,
  now = new Date(),
): Promise<TokenResponse> {
  if (grant.workspaceId) {
    const membership = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: grant.workspaceId, userId: grant.userId } },
      select: { role: true },
    });
    if (!membership)
      throw new OAuthError(
        "invalid_grant",
        "You are no longer a member of the team this grant acts in: connect again, for a workspace you are in.",
      );
  }
  const access = randomSecret(ACCESS_TOKEN_PREFIX);
  const refresh = randomSecret(REFRESH_TOKEN_PREFIX);
  await tx.oAuthToken.create({
    data: {
      accessTokenHash: sha256Hex(access),
      refreshTokenHash: sha256Hex(refresh),
      clientId: grant.clientId,
      userId: grant.userId,
      scope: grant.scope,
      resource: grant.resource,
      accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
      refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
      familyId: grant.familyId ?? randomUUID(),
      codeId: grant.codeId ?? null,
      deviceLabel: grant.deviceLabel ?? null,
      workspaceId: grant.workspaceId ?? null,
    },
  });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: grant.scope,
  };
}
