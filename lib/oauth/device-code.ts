import { getDb } from "@/lib/db/client";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { clientAddress } from "@/lib/http/client-address";
import {
  DEVICE_CODE_SECONDS,
  DEVICE_GRANT,
  DEVICE_POLL_INTERVAL,
  EXTENSION_SCOPE,
  grantedScope,
  serverUrl,
  UNKNOWN_SCOPE,
} from "@/lib/oauth/config";
import { OAuthError } from "@/lib/oauth/errors";
import { CLIENT_ID_PREFIX } from "@/lib/oauth/register-client";
import { formatUserCode, generateUserCode } from "@/lib/oauth/user-code";

export const DEVICE_CODE_PREFIX = "vdc_";

/** POST /v1/device/code (RFC 8628 3.1–3.2): a device code for the program, a user code for the person. */
export async function createDeviceCode(request: Request, input: { client_id?: string; scope?: string } = {}) {
  const scope = grantedScope(input.scope);
  if (!scope) throw new OAuthError("invalid_scope", UNKNOWN_SCOPE);
  // A device login's token is the CLI's (the device_login credential kind), never the extension's.
  if (scope === EXTENSION_SCOPE)
    throw new OAuthError("invalid_scope", "The extension scope is granted through the authorization code flow only.");
  const db = await getDb();
  const deviceCode = randomSecret(DEVICE_CODE_PREFIX);
  const expiresAt = new Date(Date.now() + DEVICE_CODE_SECONDS * 1000);
  const userAgent = request.headers.get("user-agent")?.slice(0, 200) ?? null;
  // A registered client is shown by its registered name; anything else by the client_id it sent.
  const clientId = input.client_id?.trim().slice(0, 200) || null;
  const registered = clientId
    ? await db.oAuthClient.findUnique({ where: { id: clientId }, select: { name: true, grantTypes: true } })
    : null;
  // RFC 8628 3.1: a registered client that did not register the device grant is refused here, before a
  // person is asked to approve a login its token request would be refused anyway.
  if (registered && !registered.grantTypes.includes(DEVICE_GRANT))
    throw new OAuthError(
      "unauthorized_client",
      `This client did not register the device code grant (its grant_types: ${registered.grantTypes.join(", ")}).`,
    );
  // A client_id shaped like ours that no client holds is a made-up or deleted registration, not a program's
  // name: refused (RFC 8628 3.2, RFC 6749 5.2), so the person is never shown a client that does not exist.
  // 400, not 401: the client sent no Authorization header, so there is no scheme to challenge.
  if (!registered && clientId?.startsWith(CLIENT_ID_PREFIX))
    throw new OAuthError("invalid_client", "This client is not registered here (unknown client_id).", 400);
  const label = registered?.name ?? clientId;
  // A collision of user codes (unique column) is rare; try again with a fresh one.
  for (let attempt = 0; ; attempt++) {
    const userCode = generateUserCode();
    try {
      await db.deviceCode.create({
        data: {
          deviceCodeHash: sha256Hex(deviceCode),
          userCode,
          interval: DEVICE_POLL_INTERVAL,
          expiresAt,
          clientLabel: label,
          requestAddress: clientAddress(request.headers),
          userAgent,
        },
      });
      const shown = formatUserCode(userCode);
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: serverUrl("/device"),
        verification_uri_complete: `${serverUrl("/device")}?user_code=${shown}`,
        interval: DEVICE_POLL_INTERVAL,
        expires_in: DEVICE_CODE_SECONDS,
      };
    } catch (error) {
      if (attempt >= 3 || (error as { code?: string }).code !== "P2002") throw error;
    }
  }
}
