import { ApiError } from "@/lib/http/errors";
import { limitRequest } from "@/lib/http/rate-limits";

// Anonymous pages that read the database (the public index, published transcripts, the sitemaps) are
// rate-limited per client address like the public API's reads (row `publicPage`). A page's data function
// cannot answer 429 (React Server Components have no status of their own, and a count inside a cached
// function would be cached with it), so proxy.ts counts them before Next.js renders or serves them from its
// cache: caching is untouched (proxy.ts runs apart from rendering and makes no page dynamic).

/** Paths of anonymous pages whose rendering reads the database. */
export function isPublicDataPage(pathname: string): boolean {
  return pathname === "/explore" || /^\/t\/[^/]+$/.test(pathname) || pathname === "/sitemap.xml" || /^\/sitemaps\/[^/]+$/.test(pathname);
}

/** Counts the request; over the limit, the answer to send instead (429 with Retry-After), else null. */
export async function limitPublicPage(request: Request, pathname: string): Promise<Response | null> {
  if (!isPublicDataPage(pathname)) return null;
  try {
    await limitRequest("publicPage", request);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    const xml = pathname.endsWith(".xml");
    const body = xml
      ? JSON.stringify({ detail: error.detail, code: error.code })
      : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><main><h1>Too many requests</h1><p>${error.detail}</p></main></body></html>`;
    return new Response(body, {
      status: 429,
      headers: { ...error.headers, "content-type": xml ? "application/json" : "text/html; charset=utf-8", "cache-control": "no-store" },
    });
  }
}
