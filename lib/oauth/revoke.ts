import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { OAuthError } from "@/lib/oauth/errors";
import { authenticateClient } from "@/lib/oauth/client-auth";

/** Revokes every live token of a grant: by family, by the authorization code it came from, or one row. */
export async function revokeFamily(where: { familyId?: string | null; codeId?: string; id?: string }): Promise<number> {
  const or = [
    ...(where.familyId ? [{ familyId: where.familyId }] : []),
    ...(where.codeId ? [{ codeId: where.codeId }] : []),
    ...(where.id ? [{ id: where.id }] : []),
  ];
  if (or.length === 0) return 0;
  const db = await getDb();
  const result = await db.oAuthToken.updateMany({
    where: { OR: or, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return result.count;
}

/**
 * POST /oauth/revoke (RFC 7009): an access or refresh token stops working, and with a refresh token
 * the whole grant. Unknown tokens, and tokens of another client, answer 200 as well (2.2).
 */
export async function revokeToken(
  request: Request,
  body: { token: string; client_id?: string; client_secret?: string },
): Promise<Record<string, never>> {
  const client = await authenticateClient(request, body);
  const db = await getDb();
  const hash = sha256Hex(body.token);
  const row = await db.oAuthToken.findFirst({ where: { OR: [{ accessTokenHash: hash }, { refreshTokenHash: hash }] } });
  if (!row) return {};
  if (row.clientId && row.clientId !== client?.id) {
    if (!client) throw new OAuthError("invalid_client", "Send the client_id the token was issued to.");
    return {};
  }
  if (row.refreshTokenHash === hash) await revokeFamily({ familyId: row.familyId, id: row.id });
  else await revokeFamily({ id: row.id });
  return {};
}
