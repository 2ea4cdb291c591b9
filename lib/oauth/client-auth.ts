import { timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { OAuthError } from "@/lib/oauth/errors";
import type { OAuthClient } from "@/lib/generated/prisma/client";

/**
 * The client calling the token or revocation endpoint (RFC 6749 2.3): HTTP Basic or client_secret in
 * the body for confidential clients, client_id alone for public ones. A client_id that is not a
 * registered client (e.g. a command-line program's name in the device flow) gives null.
 */
export async function authenticateClient(
  request: Request,
  body: { client_id?: string; client_secret?: string },
): Promise<OAuthClient | null> {
  let clientId = body.client_id;
  let secret = body.client_secret;
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
    if (!match) throw new OAuthError("invalid_client", "Client authentication must be HTTP Basic.");
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "Malformed HTTP Basic credentials.");
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      throw new OAuthError("invalid_client", "Malformed HTTP Basic credentials.");
    }
    if (body.client_id && body.client_id !== clientId)
      throw new OAuthError("invalid_request", "client_id differs from the authenticated client.");
  }
  if (!clientId) return null;
  const db = await getDb();
  const client = clientId.length <= 200 ? await db.oAuthClient.findUnique({ where: { id: clientId } }) : null;
  if (!client) {
    if (secret !== undefined) throw new OAuthError("invalid_client", "Unknown client or wrong secret.");
    return null;
  }
  if (client.tokenEndpointAuthMethod === "none") {
    if (secret !== undefined && secret !== "")
      throw new OAuthError("invalid_client", "This client is public; it has no secret.");
    return client;
  }
  // Either way of sending the secret is accepted from a confidential client (Basic or the body).
  if (!secret || !client.secretHash || !sameHash(sha256Hex(secret), client.secretHash)) {
    throw new OAuthError("invalid_client", "Unknown client or wrong secret.");
  }
  return client;
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
