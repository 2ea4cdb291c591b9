// Security headers, in one place. No imports: next.config.ts reads BASELINE_HEADERS at build time, and
// proxy.ts asks pageSecurityHeaders() for each page with a fresh nonce.
//
//   BASELINE_HEADERS        every response (next.config.ts `headers()`): nosniff, Referrer-Policy,
//                           Permissions-Policy.
//   API_POLICY              /v1 answers are JSON, never a document: nothing may load, nothing may frame them.
//   pageSecurityHeaders()   pages (proxy.ts): a nonce-based Content-Security-Policy (Next.js puts the
//                           nonce on its own scripts when it finds it in the request's CSP header),
//                           frame-ancestors 'none', and HSTS when APP_URL is https.
//   cachedPageHeaders()     the public pages served from Next.js's cache (/t/…, /explore; next.config.ts): the same
//                           policy without a nonce, their inline scripts allowed by 'unsafe-inline'.
//   DOCS_POLICY             /docs (Swagger UI from swagger-ui-dist, a static route): its own policy.
//   authPageHeaders()       the HTML Auth.js renders itself under /api/auth (the sign-out confirmation;
//                           proxy.ts does not run for /api): no script at all, its inline <style>,
//                           frame-ancestors 'none'.

export const BASELINE_HEADERS: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Nothing here uses these; the embedded players keep what their iframe `allow` asks for
  // (autoplay, encrypted-media, picture-in-picture, fullscreen), which are not listed.
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The players the dashboard embeds (lib/browser/transcripts.ts playerFor). */
const PLAYER_FRAMES = ["https://www.youtube-nocookie.com", "https://www.youtube.com", "https://player.vimeo.com"];

/**
 * Pages that other sites may frame. None today. Public transcript pages (/t/...) are meant to become
 * embeddable: add their pattern here and those pages get `frame-ancestors *` instead of 'none'.
 */
export const EMBEDDABLE_PAGES: RegExp[] = [];

/**
 * The headers of the pages served from Next.js's cache (/t/{slug} and its no-JavaScript search, /explore's
 * first page), fixed at build time (next.config.ts; proxy.ts does not run for them: it would cost as much
 * as serving the page).
 * A cached page is the same bytes for every view, so it cannot carry a per-view nonce: its scripts are
 * allowed by 'unsafe-inline' (no 'strict-dynamic', which would turn that off). Those pages render no
 * request input, and React escapes the stored text they show. Left out, as settings those pages do not
 * use: upload origins and sign-in form targets. HSTS always (browsers ignore it over http); no
 * upgrade-insecure-requests (it would break an http deployment).
 */
export function cachedPageHeaders(): { key: string; value: string }[] {
  const policy = pageSecurityHeaders(null, "/t/", { appUrl: "http:", uploadOrigins: [], formTargets: [] })[
    "Content-Security-Policy"
  ];
  return [
    { key: "Content-Security-Policy", value: policy },
    { key: "Strict-Transport-Security", value: "max-age=31536000" },
  ];
}

export interface PageSecuritySettings {
  /** APP_URL: https turns on HSTS and upgrade-insecure-requests. */
  appUrl: string;
  /** Where the browser PUTs uploads when they go to S3-compatible storage (connect-src), and plays them back from (media-src). */
  uploadOrigins: string[];
  /** Origins a sign-in form may end up at without JavaScript (OAuth providers' authorize pages). */
  formTargets: string[];
}

/** The page's headers; `nonce` null: the policy of a cached page (no nonce, inline scripts and styles allowed). */
export function pageSecurityHeaders(
  nonce: string | null,
  pathname: string,
  settings: PageSecuritySettings,
): Record<string, string> {
  const https = settings.appUrl.startsWith("https:");
  const embeddable = EMBEDDABLE_PAGES.some((pattern) => pattern.test(pathname));
  const directives = [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'` : "script-src 'self' 'unsafe-inline'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self' 'unsafe-inline'",
    // React renders `style={{…}}` as an attribute in server HTML (the progress bar); attributes only.
    "style-src-attr 'unsafe-inline'",
    // i.ytimg.com: YouTube's video thumbnails in the history (lib/transcripts/serializers.ts thumbnailUrl).
    "img-src 'self' data: blob: https://i.ytimg.com",
    "font-src 'self'",
    // An upload's player follows /v1/transcripts/{id}/media's redirect to the bucket when uploads are on S3. A
    // podcast episode plays from the host its feed names, any host (docs/decisions/0024-a-podcast-episode-plays-
    // from-its-host.md): media only, which runs no code; scripts, frames, images and connections stay listed.
    // http: only where the page itself is http (an https page upgrades an http enclosure, or blocks it).
    `media-src ${["'self'", "blob:", ...settings.uploadOrigins, "https:", ...(https ? [] : ["http:"])].join(" ")}`,
    `connect-src ${["'self'", ...settings.uploadOrigins].join(" ")}`,
    `frame-src ${PLAYER_FRAMES.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...settings.formTargets].join(" ")}`,
    `frame-ancestors ${embeddable ? "*" : "'none'"}`,
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return {
    "Content-Security-Policy": directives.join("; "),
    ...(https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

/** For the pages Auth.js renders itself (no scripts; one inline stylesheet; forms post to itself or a provider). */
export function authPageHeaders(settings: PageSecuritySettings): Record<string, string> {
  const https = settings.appUrl.startsWith("https:");
  const directives = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' https: data:",
    `form-action ${["'self'", ...settings.formTargets].join(" ")}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return {
    "Content-Security-Policy": directives.join("; "),
    ...(https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

export const DOCS_POLICY = [
  "default-src 'self'",
  // swagger-ui-bundle.js and init.js are files of ours; no inline script, no eval.
  "script-src 'self'",
  // Swagger UI sets inline styles on its elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** A fresh nonce per page view: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
