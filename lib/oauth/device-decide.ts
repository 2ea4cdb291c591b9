import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/client-address";
import { rateLimits } from "@/lib/http/rate-limits";
import { errors, ApiError } from "@/lib/http/errors";
import { formatUserCode, normalizeUserCode } from "@/lib/oauth/user-code";
import { grantWorkspaceId } from "@/lib/auth/workspaces";

export interface PendingDevice {
  userCode: string;
  client: string | null;
  requestAddress: string | null;
  userAgent: string | null;
  requestedAt: string;
  expiresAt: string;
}

/** The pending request behind a user code, for the /device page to show before the user decides. */
export async function findPendingDevice(input: string, now = new Date()): Promise<PendingDevice | null> {
  const code = normalizeUserCode(input);
  if (!code) return null;
  const db = await getDb();
  const row = await db.deviceCode.findUnique({ where: { userCode: code } });
  if (!row || row.status !== "pending" || row.expiresAt.getTime() <= now.getTime()) return null;
  return {
    userCode: formatUserCode(row.userCode),
    client: row.clientLabel,
    requestAddress: row.requestAddress,
    userAgent: row.userAgent,
    requestedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * POST /v1/device/approve and /v1/device/deny: the signed-in user decides a pending code. Each attempt
 * counts against the user and the address (deviceVerify rows), so codes cannot be guessed.
 */
export async function decideDeviceCode(
  request: Request,
  userId: string,
  input: string,
  decision: "approve" | "deny",
  workspace?: string | null,
  session?: { viaProvider: boolean },
): Promise<{ approved: boolean }> {
  // The per-user count is the endpoint's own row (deviceVerify); this adds the per-address one.
  await (await rateLimits()).consume("deviceVerifyAddress", `ip:${clientAddress(request.headers)}`);
  const code = normalizeUserCode(input);
  if (!code) throw new ApiError("invalid_user_code", "That is not a code: it has 8 letters, like BCDF-GHJK.");
  const workspaceId = decision === "approve" ? await grantWorkspaceId(userId, workspace, session) : null;
  const db = await getDb();
  const decided = await db.deviceCode.updateMany({
    where: { userCode: code, status: "pending", expiresAt: { gt: new Date() } },
    data:
      decision === "approve"
        ? { status: "approved", userId, workspaceId, decidedAt: new Date() }
        : { status: "denied", userId, decidedAt: new Date() },
  });
  if (decided.count !== 1)
    throw errors.notFound(
      "No pending request has this code; it may have expired or been used. Start again on the device.",
    );
  return { approved: decision === "approve" };
}
