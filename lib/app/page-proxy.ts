import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { securePage } from "@/lib/http/page-security";
import { env } from "@/lib/env";

// What proxy.ts does for every page it runs for. Two separate jobs: the security headers of every page
// (lib/http/page-security.ts) and the sign-in gate of /dashboard. (The rate limit of anonymous pages that
// read the database is counted earlier, by the request guard: lib/http/public-page-limit.ts.)

export function pageProxy(request: NextRequest): NextResponse {
  const page = securePage(request);
  return page.apply(dashboardGate(request) ?? NextResponse.next({ request: { headers: page.requestHeaders } }));
}

// Signed-out visits to /dashboard/* go to sign-in and come back afterwards. This only looks for the
// session cookie; the dashboard layout verifies the session itself.
function dashboardGate(request: NextRequest): NextResponse | null {
  const { pathname } = request.nextUrl;
  if (pathname !== "/dashboard" && !pathname.startsWith("/dashboard/")) return null;
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (hasSession) return null;
  // Built from APP_URL, not from the request (whose host and scheme a client's forwarding headers can set).
  const signIn = new URL("/signin", new URL(env().APP_URL).origin);
  signIn.searchParams.set("callbackUrl", safeCallbackPath(request.nextUrl.pathname + request.nextUrl.search));
  return NextResponse.redirect(signIn);
}
