import { explainForUrl, isOutboundError } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";
import { asApiError } from "@/lib/captions/upstream-errors";
import { DEFAULT_FEED_PARSE, DEFAULT_FEED_TIMEOUT_MS, type FeedFetchDeps } from "@/lib/podcasts/fetch-feed";
import { readFeedOffThread, type ReadFeed } from "@/lib/podcasts/parse-off-thread";

export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface FetchCost {
  requests: number;
  bytes: number;
}

export type FeedCheck = FetchCost &
  FeedValidators & {
    /** Where the feed now is: the URL asked for, or where permanent redirects (301, 308) all the way led. */
    url: string;
    moved: boolean;
    /** The answer's `Link` header (WebSub discovery), or null. */
    link: string | null;
  } & ({ changed: false } | { changed: true; feed: ReadFeed });

const MAX_HOPS = 5;
const PERMANENT = new Set([301, 308]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * A feed fetched for a check: conditional (If-None-Match / If-Modified-Since from the last answer), redirects
 * followed by hand so that a permanent move is seen, the body read within `maxBytes` and one deadline for all
 * hops, and parsed off the event loop. 304 → `changed: false`, nothing read.
 */
export async function fetchFeedForCheck(
  url: string,
  validators: FeedValidators,
  deps: FeedFetchDeps,
): Promise<FeedCheck> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_FEED_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  let permanent = true;
  let moved = url;
  const cost: FetchCost = { requests: 0, bytes: 0 };
  try {
    for (let hop = 0; ; hop++) {
      const left = Math.max(1, deadline - Date.now());
      const headers: Record<string, string> = {
        accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
      };
      if (validators.etag) headers["if-none-match"] = validators.etag;
      if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
      const response = await deps.outbound.safeFetchStream(current, {
        maxBytes: deps.maxBytes,
        timeoutMs: left,
        totalTimeoutMs: left,
        followRedirects: false,
        headers,
      });
      cost.requests++;
      if (REDIRECT.has(response.status)) {
        response.body.destroy();
        const location = response.headers.get("location");
        if (!location || hop + 1 >= MAX_HOPS)
          throw new ApiError("too_many_redirects", "The feed redirected too many times, or without saying where.");
        const next = deps.outbound.checkUrl(new URL(location, current).href).href;
        permanent &&= PERMANENT.has(response.status);
        if (permanent) moved = next;
        current = next;
        continue;
      }
      const etag = response.headers.get("etag");
      const lastModified = response.headers.get("last-modified");
      const where = { url: moved, moved: moved !== url, link: response.headers.get("link") };
      if (response.status === 304) {
        response.body.destroy();
        return {
          ...cost,
          ...where,
          etag: etag ?? validators.etag,
          lastModified: lastModified ?? validators.lastModified,
          changed: false,
        };
      }
      if (!response.ok) {
        response.body.destroy();
        throw new ApiError("upstream_failed", `The feed answered HTTP ${response.status}.`);
      }
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type.startsWith("audio/") || type.startsWith("video/")) {
        response.body.destroy();
        throw new ApiError("not_a_feed", "That URL is an audio or video file, not a feed: follow the show's feed.");
      }
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      cost.bytes += body.length;
      const feed = await readFeedOffThread(
        body,
        response.headers.get("content-type"),
        deps.parse ?? DEFAULT_FEED_PARSE,
      );
      return { ...cost, ...where, etag, lastModified, changed: true, feed };
    }
  } catch (error) {
    throw asApiError(isOutboundError(error) ? explainForUrl(error, current) : error);
  }
}
