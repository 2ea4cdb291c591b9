/**
 * Expands platform short links (vm.tiktok.com, fb.watch, xhslink.com, ...) into a URL
 * parseSourceUrl understands. Every request goes through the outbound module, which checks each
 * host it connects to; redirects are followed here one hop at a time so that we stop as soon as a
 * supported URL appears, without ever fetching the platform page itself.
 */
import { type FetchOptions, type Outbound, OutboundError, type StreamResponse } from "@/lib/http/outbound";

import { type ParsedSource, type ParseOptions, parseSourceUrl } from "./parse";

export interface ResolveOptions extends ParseOptions {
  /** Most hops followed. Default 5. */
  maxHops?: number;
  /** How much of an HTML body (GET fallback only) is read looking for a refresh or canonical link. Default 64 KiB. */
  maxHtmlBytes?: number;
  /** Passed to each request (timeouts, headers such as a browser-like User-Agent). */
  fetch?: Omit<FetchOptions, "method" | "followRedirects" | "body">;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Follows `url` until it becomes a supported, non-short-link source URL and returns it parsed.
 * Returns null if the chain ends somewhere unsupported (or at a short link that no longer redirects).
 * Throws OutboundError when a hop is refused (internal address, bad scheme), times out, or fails,
 * or after `maxHops` redirects.
 */
export async function resolveShortLink(
  url: string,
  outbound: Pick<Outbound, "safeFetchStream">,
  opts: ResolveOptions = {},
): Promise<ParsedSource | null> {
  const maxHops = opts.maxHops ?? 5;
  const parseOpts: ParseOptions = { allowPrivateFor: opts.allowPrivateFor };
  // A short link must land on its own platform (fb.watch on Facebook, xhslink.com on RedNote, ...).
  const platform = parseSourceUrl(url, parseOpts)?.platform;
  let current = url;

  for (let hop = 0; hop <= maxHops; hop++) {
    const parsed = parseSourceUrl(current, parseOpts);
    if (parsed && !parsed.needsResolve) return platform === undefined || parsed.platform === platform ? parsed : null;

    const next = await nextLocation(current, outbound, opts);
    if (next === null) return null;
    current = next;
  }
  throw new OutboundError("too_many_redirects", `The short link redirected more than ${maxHops} times.`);
}

/** One hop: HEAD, and GET when HEAD does not redirect. Returns where the URL points, or null. */
async function nextLocation(
  current: string,
  outbound: Pick<Outbound, "safeFetchStream">,
  opts: ResolveOptions,
): Promise<string | null> {
  // A hop reads at most a page's head: its whole body, too, within the call's deadline (default 30 s).
  const base = { totalTimeoutMs: opts.fetch?.timeoutMs ?? 30_000, ...opts.fetch, followRedirects: false };

  let head: StreamResponse | null = null;
  try {
    head = await outbound.safeFetchStream(current, { ...base, method: "HEAD" });
  } catch (err) {
    // Some servers drop HEAD on the floor; GET below gets a second chance. Refusals are final.
    if (!(err instanceof OutboundError) || (err.code !== "upstream_failed" && err.code !== "upstream_timeout"))
      throw err;
  }
  if (head) {
    head.body.destroy();
    const loc = locationOf(head, current);
    if (loc !== null) return loc;
  }

  const get = await outbound.safeFetchStream(current, { ...base, method: "GET" });
  try {
    const loc = locationOf(get, current);
    if (loc !== null) return loc;
    if (get.status < 200 || get.status >= 300) return null;
    if (!/html/i.test(get.headers.get("content-type") ?? "")) return null;
    const html = await readPrefix(get, opts.maxHtmlBytes ?? 64 * 1024);
    const link = linkInHtml(html, current);
    // Only a link to something we support is worth another hop; a page naming itself is not.
    return link !== null && link !== current && parseSourceUrl(link, { allowPrivateFor: opts.allowPrivateFor })
      ? link
      : null;
  } finally {
    get.body.destroy();
  }
}

function locationOf(res: StreamResponse, current: string): string | null {
  if (!REDIRECTS.has(res.status)) return null;
  const location = res.headers.get("location");
  if (!location) return null;
  try {
    return new URL(location, current).href;
  } catch {
    return null;
  }
}

/** Reads at most `cap` bytes of the body, then stops the download. */
async function readPrefix(res: StreamResponse, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      chunks.push(buf);
      size += buf.length;
      if (size >= cap) break;
    }
  } catch (err) {
    if (!(err instanceof OutboundError && err.code === "response_too_large")) throw err;
  }
  return Buffer.concat(chunks).subarray(0, cap).toString("utf8");
}

/** A page that redirects with a meta refresh, or names its canonical / og:url. */
export function linkInHtml(html: string, base: string): string | null {
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, "&")
      .replace(/&#x2F;/gi, "/")
      .replace(/&#47;/g, "/")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const attr = (tag: string, name: string): string | null => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
    return m ? (m[1] ?? m[2] ?? m[3] ?? null) : null;
  };
  const candidates: string[] = [];
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const equiv = attr(tag, "http-equiv");
    const content = attr(tag, "content");
    if (equiv?.toLowerCase() === "refresh" && content) {
      const u = /url\s*=\s*['"]?([^'"]+)/i.exec(decode(content))?.[1];
      if (u) candidates.unshift(u.trim());
    } else if (attr(tag, "property")?.toLowerCase() === "og:url" && content) {
      candidates.push(decode(content));
    }
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    if (attr(m[0], "rel")?.toLowerCase() === "canonical") {
      const href = attr(m[0], "href");
      if (href) candidates.push(decode(href));
    }
  }
  for (const c of candidates) {
    try {
      const u = new URL(c, base);
      if (u.protocol === "http:" || u.protocol === "https:") return u.href;
    } catch {
      // try the next one
    }
  }
  return null;
}
