import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";

/** The user an opaque access token (OAuth connector or CLI device login) belongs to, or null. */
export async function findUserIdByAccessToken(token: string): Promise<string | null> {
  if (token.length > 256) return null;
  const db = await getDb();
  const row = await db.oAuthToken.findUnique({
    where: { accessTokenHash: sha256Hex(token) },
    select: { userId: true, revokedAt: true, accessExpiresAt: true },
  });
  if (!row || row.revokedAt || row.accessExpiresAt.getTime() <= Date.now()) return null;
  return row.userId;
}

/** The resource (RFC 8707) an access token is bound to, or null when it names none (or is unknown). */
export async function findAccessTokenResource(token: string): Promise<string | null> {
  if (token.length > 256) return null;
  const db = await getDb();
  const row = await db.oAuthToken.findUnique({ where: { accessTokenHash: sha256Hex(token) }, select: { resource: true } });
  return row?.resource ?? null;
}
