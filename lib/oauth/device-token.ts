import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { DEFAULT_SCOPE, SLOW_DOWN_STEP, apiResource } from "@/lib/oauth/config";
import { OAuthError } from "@/lib/oauth/errors";
import { issueTokens, type TokenResponse } from "@/lib/oauth/issue-tokens";

/**
 * One poll of the device flow (RFC 8628 3.4–3.5), for POST /v1/device/token and the device grant at
 * /oauth/token. Every transition is a conditional UPDATE, so two concurrent polls never both succeed:
 * the tokens of an approved code are issued exactly once.
 */
export async function pollDeviceCode(deviceCode: string, now = new Date()): Promise<TokenResponse> {
  const db = await getDb();
  const row =
    deviceCode.length <= 256
      ? await db.deviceCode.findUnique({ where: { deviceCodeHash: sha256Hex(deviceCode) } })
      : null;
  if (!row || row.status === "used")
    throw new OAuthError("invalid_grant", "The device code is unknown or has already been used.");
  if (row.expiresAt.getTime() <= now.getTime())
    throw new OAuthError("expired_token", "The device code has expired; start again.");
  if (row.status === "denied") throw new OAuthError("access_denied", "The user denied the request.");

  // Polling faster than the interval: slow down, and the interval grows by 5 s (RFC 8628 3.5). The
  // update is conditional on the last poll we read, so of two polls racing only one counts as on time.
  const early = row.lastPolledAt !== null && now.getTime() - row.lastPolledAt.getTime() < row.interval * 1000;
  const stamped = await db.deviceCode.updateMany({
    where: { id: row.id, lastPolledAt: row.lastPolledAt },
    data: { lastPolledAt: now, ...(early ? { interval: { increment: SLOW_DOWN_STEP } } : {}) },
  });
  if (early || stamped.count === 0) {
    throw new OAuthError(
      "slow_down",
      `Polling too fast; wait at least ${row.interval + SLOW_DOWN_STEP} seconds between polls.`,
    );
  }
  if (row.status !== "approved" || !row.userId)
    throw new OAuthError("authorization_pending", "The user has not approved the code yet.");

  const userId = row.userId;
  const issued = await db.$transaction(async (tx) => {
    const used = await tx.deviceCode.updateMany({
      where: { id: row.id, status: "approved" },
      data: { status: "used" },
    });
    if (used.count !== 1) return null;
    return issueTokens(
      tx,
      {
        userId,
        clientId: null,
        scope: DEFAULT_SCOPE,
        resource: apiResource(),
        deviceLabel: row.clientLabel ?? "device login",
        workspaceId: row.workspaceId,
      },
      now,
    );
  });
  if (!issued) throw new OAuthError("invalid_grant", "The device code has already been used.");
  return issued;
}
