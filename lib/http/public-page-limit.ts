import { ApiError } from "@/lib/http/errors";
import { clientAddress, type HeaderReader } from "@/lib/http/client-address";
import { rateLimits } from "@/lib/http/rate-limits";

// Anonymous pages that read the database (the public index and its search, published transcripts and
// their search, a show's page and its search, the sitemaps) are rate-limited per client address like the public API's reads (row
// `publicPage`). They are counted by the request guard (request-guard.ts), on Node's server before Next.js:
// a page's data function cannot answer 429 (React Server Components have no status of their own, and a
// refusal inside a cached render would be cached for everyone), and proxy.ts does not run for the pages
// served from Next.js's cache (a proxy run costs about as much as serving them). Every request is counted,
// cache hits too: which request will miss the cache (an unknown slug, an expired page) is not known before
// Next.js looks, and counting in memory costs far less than that look.

/** Paths of anonymous pages whose rendering reads the database (rewrite targets included). */
export function isPublicDataPage(pathname: string): boolean {
  return (
    pathname === "/explore" ||
    pathname.startsWith("/explore/") ||
    pathname.startsWith("/t/") ||
    // A show's feed is an API endpoint, limited by its own row.
    (pathname.startsWith("/s/") && !pathname.endsWith("/feed.xml")) ||
    pathname === "/sitemap.xml" ||
    pathname.startsWith("/sitemaps/")
  );
}

export interface PageRefusal {
  status: 429;
  headers: Record<string, string>;
  body: string;
}

// The refusal page loads nothing and may not be framed.
const REFUSAL_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Counts one request of the client; over the limit, the answer to send instead (429 with Retry-After), else null. */
export async function limitPublicPage(pathname: string, headers: HeaderReader): Promise<PageRefusal | null> {
  const limits = await rateLimits();
  if (limits.off) return null;
  try {
    await limits.consume("publicPage", `ip:${clientAddress(headers)}`);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    const xml = pathname.endsWith(".xml");
    const body = xml
      ? JSON.stringify({ detail: error.detail, code: error.code })
      : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><main><h1>Too many requests</h1><p>${error.detail}</p></main></body></html>`;
    return {
      status: 429,
      body,
      headers: {
        ...error.headers,
        "content-type": xml ? "application/json" : "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": REFUSAL_POLICY,
        "x-content-type-options": "nosniff",
      },
    };
  }
}
