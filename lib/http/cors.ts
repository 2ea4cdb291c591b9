// CORS for what any web page may read (an endpoint's `anyOrigin`: the public transcript and its files, which
// podcast players and other sites fetch from the browser). Nothing here needs credentials, so `*` is enough
// for the origin and the answer never varies by it.

/** What such a page may do: read, with the conditional and partial requests a player sends. */
export const CORS_ALLOW_METHODS = "GET, HEAD, OPTIONS";

/**
 * Request headers a browser must ask about first (not CORS-safelisted): a player's Range, the conditional
 * requests that revalidate a cached file, and a fetch's `cache: "no-cache"`.
 */
export const CORS_ALLOW_HEADERS =
  "Range, If-Range, If-None-Match, If-Modified-Since, Cache-Control, Pragma, Accept, Accept-Language";

/**
 * Answer headers a page's script may read beyond the safelisted ones: ETag for its own revalidation, the
 * file's language and name, its size, and when to come back after a 429.
 */
export const CORS_EXPOSE_HEADERS =
  "ETag, Content-Language, Content-Length, Content-Disposition, Last-Modified, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";

/** How long a browser may keep a preflight's answer (browsers cap it lower: Chromium at two hours). */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** The headers on every answer a page of any origin may read. */
export function withAnyOrigin(response: Response): Response {
  response.headers.set("access-control-allow-origin", "*");
  response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
  return response;
}

/**
 * The OPTIONS handler of a route any origin may read: the preflight's answer, 204 without a body, whatever
 * the path's slug (a preflight carries no credentials and learns nothing about what is published).
 */
export async function corsPreflight(): Promise<Response> {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": CORS_ALLOW_METHODS,
      "access-control-allow-headers": CORS_ALLOW_HEADERS,
      "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
      allow: CORS_ALLOW_METHODS,
    },
  });
}
