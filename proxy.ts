import type { NextRequest } from "next/server";

// Runs for every page (not for the API, static files or uploads: see `config`); what it does is in
// lib/app/page-proxy.ts, loaded with the first page it runs for: Next.js loads this module at start, and
// the security headers' and settings' modules would add to every start's time.

export async function proxy(request: NextRequest) {
  const { pageProxy } = await import("@/lib/app/page-proxy");
  return pageProxy(request);
}

// Not matched, on purpose: /v1, /scim (SCIM's API) and /api (a proxy makes Next.js buffer every request body before the
// route sees it, which would defeat the streaming body limits), static files, /uploads (large PUTs),
// /health, /metrics, /openapi.json, /docs (Swagger UI carries its own policy), the public pages /t/… and /s/… (a show and its feed)
// (served from Next.js's cache with fixed headers from next.config.ts: a proxy run would cost as much as
// serving them), /explore's first page (cached likewise: a search or a later page, /explore?q= or ?cursor=,
// is rendered per request and does get its nonce here) and the sitemaps (XML, with the API's policy from
// next.config.ts).
export const config = {
  matcher: [
    "/((?!v1/|v1$|api/|_next/static/|_next/image|favicon\\.ico$|uploads/|health$|metrics$|openapi\\.json$|docs$|docs/|mcp$|scim/|t/|s/|explore$|explore/newest$|sitemap\\.xml$|sitemaps/|\\.well-known/oauth-).*)",
    { source: "/explore", has: [{ type: "query", key: "q" }] },
    { source: "/explore", has: [{ type: "query", key: "cursor" }] },
  ],
};
