import { errors } from "@/lib/http/errors";
import { env } from "@/lib/env";
import { findApiKeyCaller, API_KEY_PREFIX } from "@/lib/auth/api-keys";
import { findUserIdByAccessToken } from "@/lib/auth/oauth-tokens";
import { sessionUserId } from "@/lib/auth/session";
import type { NextRequest } from "next/server";
import type { ApiKey, Tier } from "@/lib/generated/prisma/client";

export type Credential = "session" | "api_key" | "oauth";
export type AuthMode = "none" | "any" | Credential | Credential[];

export interface Principal {
  userId: string;
  via: Credential;
  /** Read with an API key, in the same query: the caller's tier (for per-tier limits) and the key row. */
  tier?: Tier;
  apiKey?: ApiKey;
}

export function credentialsFor(mode: AuthMode): Credential[] {
  if (mode === "none") return [];
  if (mode === "any") return ["session", "api_key", "oauth"];
  return Array.isArray(mode) ? mode : [mode];
}

function bearerToken(header: string): string {
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  if (!match) throw errors.unauthorized("The Authorization header must be 'Bearer <API key>'.");
  return match[1];
}

/**
 * Who is calling. A bearer credential, when sent, must be valid (a bad key is never silently
 * downgraded to the cookie session); otherwise the dashboard session cookie is used if allowed.
 * An OAuth access token must be bound to `resource` (RFC 8707; default: the /v1 API).
 */
export async function authenticate(request: NextRequest, mode: AuthMode, resource?: string): Promise<Principal> {
  const allowed = credentialsFor(mode);
  const header = request.headers.get("authorization");
  if (header) {
    const token = bearerToken(header);
    if (token.startsWith(API_KEY_PREFIX) && allowed.includes("api_key")) {
      const caller = await findApiKeyCaller(token);
      if (caller) return { userId: caller.userId, via: "api_key", tier: caller.tier, apiKey: caller.apiKey };
    } else if (!token.startsWith(API_KEY_PREFIX) && allowed.includes("oauth")) {
      const userId = await findUserIdByAccessToken(token, resource);
      if (userId) return { userId, via: "oauth" };
    }
    throw errors.invalidToken();
  }
  if (allowed.includes("session")) {
    const userId = await sessionUserId(request);
    if (userId) {
      assertSameOrigin(request);
      return { userId, via: "session" };
    }
  }
  throw errors.unauthorized();
}

/** Cookie-authenticated writes must come from our own pages (defence in depth over SameSite=Lax). */
function assertSameOrigin(request: Request) {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("origin");
  if (!origin) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" or garbage: not our page
  }
  if (originHost !== host && origin !== new URL(env().APP_URL).origin) {
    throw errors.forbidden("Cross-site requests with a session cookie are not allowed.");
  }
}
