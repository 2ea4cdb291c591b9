import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

// Signed-out visits to /dashboard/* go to sign-in and come back afterwards. This only looks for the
// session cookie; the dashboard layout verifies the session itself.

export function proxy(request: NextRequest) {
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (hasSession) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", safeCallbackPath(request.nextUrl.pathname + request.nextUrl.search));
  return NextResponse.redirect(signIn);
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
