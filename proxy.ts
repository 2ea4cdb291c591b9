import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { securePage } from "@/lib/http/page-security";
import { limitPublicPage } from "@/lib/http/public-page-limit";
import { env } from "@/lib/env";

// Runs for every page (not for the API, static files or uploads: see `config`). Three separate jobs:
// the security headers of every page (lib/http/page-security.ts), the rate limit of anonymous pages that
// read the database (lib/http/public-page-limit.ts), and the sign-in gate of /dashboard.

export async function proxy(request: NextRequest) {
  const page = securePage(request);
  const limited = await limitPublicPage(request, request.nextUrl.pathname);
  if (limited) return page.apply(new NextResponse(limited.body, limited));
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

// Not matched, on purpose: /v1 and /api (a proxy makes Next.js buffer every request body before the
// route sees it, which would defeat the streaming body limits), static files, /uploads (large PUTs),
// /health, /metrics, /openapi.json, /docs (Swagger UI carries its own policy), and the public pages /t/…
// (served from Next.js's cache with fixed headers from next.config.ts: a proxy run would cost as much as
// serving them).
export const config = {
  matcher: ["/((?!v1/|v1$|api/|_next/static/|_next/image|favicon\\.ico$|uploads/|health$|metrics$|openapi\\.json$|docs$|docs/|mcp$|t/|\\.well-known/oauth-).*)"],
};
