import { decode, type JWT } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { authSecret } from "@/lib/auth/secret";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { activeSession, type ActiveSession } from "@/lib/auth/sessions";

/**
 * The request's Auth.js session (whose, and how it was made), or null. Decoding the JWT here (rather than
 * calling auth()) works in any handler and needs no request-scoped Next.js context; the session must
 * still exist (not signed out: one indexed lookup, see sessions.ts).
 */
export async function requestSession(request: NextRequest): Promise<ActiveSession | null> {
  for (const name of SESSION_COOKIES) {
    const value = request.cookies.get(name)?.value;
    if (!value) continue;
    let token: JWT | null = null;
    try {
      token = await decode({ token: value, secret: authSecret(), salt: name });
    } catch {
      // Expired, tampered or from another secret: treated as no session.
    }
    if (typeof token?.sub === "string") return activeSession(token.sid, token.sub);
  }
  return null;
}

/** The user id in the request's session cookie, or null (requestSession). */
export async function sessionUserId(request: NextRequest): Promise<string | null> {
  return (await requestSession(request))?.userId ?? null;
}
