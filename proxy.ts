import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { securePage } from "@/lib/http/page-security";
import { env } from "@/lib/env";

// Runs for every page (not for the API, static files or uploads: see `config`). Two separate jobs: the
// security headers of every page (lib/http/page-security.ts) and the sign-in gate of /dashboard. (The rate
// limit of anonymous pages that read the database is counted earlier, by the request guard:
// lib/http/public-page-limit.ts.)

export function proxy(request: NextRequest) {
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

// Not matched, on purpose: /v1 and /api (a proxy makes Next.js buffer every request body before the
// route sees it, which would defeat the streaming body limits), static files, /uploads (large PUTs),
// /health, /metrics, /openapi.json, /docs (Swagger UI carries its own policy), the public pages /t/…
// (served from Next.js's cache with fixed headers from next.config.ts: a proxy run would cost as much as
// serving them), /explore's first page (cached likewise: a search or a later page, /explore?q= or ?cursor=,
// is rendered per request and does get its nonce here) and the sitemaps (XML, with the API's policy from
// next.config.ts).
export const config = {
  matcher: [
    "/((?!v1/|v1$|api/|_next/static/|_next/image|favicon\\.ico$|uploads/|health$|metrics$|openapi\\.json$|docs$|docs/|mcp$|t/|explore$|explore/newest$|sitemap\\.xml$|sitemaps/|\\.well-known/oauth-).*)",
    { source: "/explore", has: [{ type: "query", key: "q" }] },
    { source: "/explore", has: [{ type: "query", key: "cursor" }] },
  ],
};
