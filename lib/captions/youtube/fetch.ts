/**
 * The `fetch` handed to youtubei.js: every request it makes goes through the outbound module
 * (SSRF guard, timeouts, size cap, optional proxy) instead of the global fetch.
 *
 * youtubei.js calls it as `fetch(request, { body, headers, redirect, credentials })` (its HTTPClient)
 * or `fetch(urlString, { method, headers, body })` (session config); both shapes are read here.
 * Only YouTube and Google hosts are fetched at all. With `baseUrl` (tests), requests to the YouTube
 * API hosts go to that origin instead, path and query unchanged.
 */
import { type Outbound, OutboundError, normalizeHost } from "@/lib/http/outbound";

/** Hosts whose requests are sent to `baseUrl` when one is set. */
export const YOUTUBE_API_HOSTS: ReadonlySet<string> = new Set([
  "www.youtube.com",
  "youtube.com",
  "m.youtube.com",
  "youtubei.googleapis.com",
]);

/** youtubei.js has no business anywhere else. */
const ALLOWED_HOST_SUFFIXES = [
  "youtube.com",
  "googleapis.com",
  "google.com",
  "googlevideo.com",
  "ytimg.com",
  "youtube-nocookie.com",
];

export function isAllowedYoutubeHost(host: string): boolean {
  const h = normalizeHost(host);
  return ALLOWED_HOST_SUFFIXES.some((s) => h === s || h.endsWith(`.${s}`));
}

/** `https://www.youtube.com/youtubei/v1/player?x=1` → `<baseUrl>/youtubei/v1/player?x=1` for API hosts. */
export function rewriteYoutubeUrl(url: URL, baseUrl: string | undefined): URL {
  if (!baseUrl || !YOUTUBE_API_HOSTS.has(normalizeHost(url.hostname))) return url;
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  return new URL(`${base.origin}${prefix}${url.pathname}${url.search}`);
}

export interface OutboundFetchOptions {
  outbound: Outbound;
  baseUrl?: string;
  /** Largest response body accepted. Default 10 MiB (a player response is a few hundred KiB). */
  maxBytes?: number;
  timeoutMs?: number;
}

/** Headers node:http or the outbound module set themselves. */
const DROPPED_REQUEST_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "transfer-encoding",
  "keep-alive",
]);
/** Bodies arrive decoded (identity) and whole, so these would lie. */
const DROPPED_RESPONSE_HEADERS = ["content-encoding", "transfer-encoding", "content-length"];
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

async function bodyBytes(body: BodyInit | null | undefined): Promise<string | Uint8Array | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) return body.toString();
  // Blob, FormData, ReadableStream: let the platform serialise it.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export function createOutboundFetch(opts: OutboundFetchOptions): typeof fetch {
  const { outbound, baseUrl } = opts;

  return async function outboundFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : String(input));
    if (!isAllowedYoutubeHost(url.hostname)) {
      throw new OutboundError("url_not_allowed", "YouTube requests only go to YouTube and Google hosts.");
    }
    const target = rewriteYoutubeUrl(url, baseUrl);
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();

    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? request?.headers).forEach((value, key) => {
      if (!DROPPED_REQUEST_HEADERS.has(key)) headers[key] = value;
    });
    if (init?.body instanceof URLSearchParams && !("content-type" in headers)) {
      headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8";
    }
    let body = await bodyBytes(init?.body);
    if (body === undefined && request?.body && method !== "GET" && method !== "HEAD") {
      body = new Uint8Array(await request.arrayBuffer());
    }

    const res = await outbound.safeFetchBuffer(target, {
      method,
      headers,
      body,
      maxBytes: opts.maxBytes,
      timeoutMs: opts.timeoutMs,
      followRedirects: (init?.redirect ?? request?.redirect ?? "follow") === "follow",
      signal: init?.signal ?? request?.signal ?? undefined,
    });

    const responseHeaders = new Headers(res.headers);
    for (const h of DROPPED_RESPONSE_HEADERS) responseHeaders.delete(h);
    const response = new Response(NULL_BODY_STATUSES.has(res.status) ? null : new Uint8Array(res.body), {
      status: res.status,
      headers: responseHeaders,
    });
    // Response.url is read-only and empty for constructed responses; youtubei.js puts it in errors.
    Object.defineProperty(response, "url", { value: res.url });
    return response;
  };
}
