import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { apiResource, currentResource, EXTENSION_SCOPE } from "@/lib/auth/resources";

// How often "last used" is written for a token (the dashboard shows it); not on every request.
const LAST_USED_EVERY_MS = 60_000;

/**
 * The person an opaque access token (OAuth connector or CLI device login) belongs to, whether it is a device
 * login's, and the workspace chosen at consent (null: their own account), or null. A token is
 * bound to the resource it was issued for (RFC 8707): one for the MCP endpoint does not open /v1, and
 * the reverse. Tokens issued without a `resource` are for the /v1 API. The binding is to the resource's
 * role, not its address: a token issued before APP_URL changed keeps working (currentResource).
 */
export async function findUserIdByAccessToken(
  token: string,
  resource: string = apiResource(),
): Promise<{ userId: string; device: boolean; extension: boolean; workspaceId: string | null } | null> {
  if (token.length > 256) return null;
  const db = await getDb();
  const row = await db.oAuthToken.findUnique({
    where: { accessTokenHash: sha256Hex(token) },
    select: {
      id: true,
      userId: true,
      clientId: true,
      revokedAt: true,
      accessExpiresAt: true,
      resource: true,
      lastUsedAt: true,
      workspaceId: true,
      scope: true,
    },
  });
  if (!row || row.revokedAt || row.accessExpiresAt.getTime() <= Date.now()) return null;
  if (currentResource(row.resource) !== resource) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await db.oAuthToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  // A token with no registered client came from the device flow (the CLI's login).
  // grantedScope lets `extension` be asked for only alone.
  return {
    userId: row.userId,
    device: row.clientId === null,
    extension: row.scope === EXTENSION_SCOPE,
    workspaceId: row.workspaceId,
  };
}
