import { explainForUrl, isOutboundError, type Outbound } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";
import { asApiError } from "@/lib/captions/upstream-errors";
import {
  MAX_FEED_EPISODES,
  readFeedOffThread,
  type FeedParseSettings,
  type ReadFeed,
} from "@/lib/podcasts/parse-off-thread";

export interface FeedFetchDeps {
  outbound: Outbound;
  /** Largest body read (PODCAST_FEED_MAX_BYTES): the outbound guard stops reading past it. */
  maxBytes: number;
  /** Deadline for fetching the feed, body included (PODCAST_FEED_TIMEOUT_SECONDS). Default 60 s. */
  timeoutMs?: number;
  /** How feeds are parsed off the event loop (parse-off-thread.ts). Default DEFAULT_FEED_PARSE. */
  parse?: FeedParseSettings;
}

/** The settings' defaults (lib/env.ts), for callers that do not pass their own. */
export const DEFAULT_FEED_PARSE: FeedParseSettings = {
  threads: 2,
  timeoutMs: 20_000,
  memoryMb: 384,
  maxEpisodes: MAX_FEED_EPISODES,
};
export const DEFAULT_FEED_TIMEOUT_MS = 60_000;

export type Fetched = { kind: "feed"; feed: ReadFeed; url: string } | { kind: "audio"; url: string };

/**
 * GETs a URL through the outbound guard and decides what it is by the answer's media type: audio or
 * video → an episode file (the body is not read); anything else is read, at most `maxBytes` and within
 * `timeoutMs` in all, then decoded (decode-feed.ts) and parsed as a feed in a worker thread
 * (parse-off-thread.ts). Errors are API errors: 422 for a malformed feed, one over the size cap or the
 * parser's bounds, 502/504 upstream.
 */
export async function fetchFeedOrAudio(url: string, deps: FeedFetchDeps): Promise<Fetched> {
  try {
    const timeoutMs = deps.timeoutMs ?? DEFAULT_FEED_TIMEOUT_MS;
    const response = await deps.outbound.safeFetchStream(url, {
      maxBytes: deps.maxBytes,
      timeoutMs,
      totalTimeoutMs: timeoutMs,
      headers: {
        accept:
          "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, audio/*;q=0.8, */*;q=0.5",
      },
    });
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!response.ok) {
      response.body.destroy();
      throw new ApiError("upstream_failed", `That URL answered HTTP ${response.status}.`);
    }
    if (type.startsWith("audio/") || type.startsWith("video/")) {
      response.body.destroy();
      return { kind: "audio", url };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const feed = await readFeedOffThread(
      Buffer.concat(chunks),
      response.headers.get("content-type"),
      deps.parse ?? DEFAULT_FEED_PARSE,
    );
    return { kind: "feed", feed, url };
  } catch (error) {
    // A DNS failure, a refused connection or a certificate: said about the feed's host, not as "try again".
    throw asApiError(isOutboundError(error) ? explainForUrl(error, url) : error);
  }
}
