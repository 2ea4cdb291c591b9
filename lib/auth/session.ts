import { decode } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { authSecret } from "@/lib/auth/secret";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";

/**
 * The user id in the request's Auth.js session cookie, or null. Decoding the JWT here (rather than
 * calling auth()) works in any handler, needs no request-scoped Next.js context, and is cheap.
 */
export async function sessionUserId(request: NextRequest): Promise<string | null> {
  for (const name of SESSION_COOKIES) {
    const value = request.cookies.get(name)?.value;
    if (!value) continue;
    try {
      const token = await decode({ token: value, secret: authSecret(), salt: name });
      if (typeof token?.sub === "string") return token.sub;
    } catch {
      // Expired, tampered or from another secret: treated as no session.
    }
  }
  return null;
}
