import type { Outbound } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";
import { asApiError } from "@/lib/transcripts/upstream-errors";
import { FeedParseError, parseFeed, type ParsedFeed } from "@/lib/podcasts/parse-feed";
import { decodeFeed } from "@/lib/podcasts/decode-feed";

export interface FeedFetchDeps {
  outbound: Outbound;
  /** Largest body read (PODCAST_FEED_MAX_BYTES): the outbound guard stops reading past it. */
  maxBytes: number;
}

export type Fetched = { kind: "feed"; feed: ParsedFeed; url: string } | { kind: "audio"; url: string };

/**
 * GETs a URL through the outbound guard and decides what it is by the answer's media type: audio or
 * video → an episode file (the body is not read); anything else is read, at most `maxBytes`, decoded in its
 * encoding (decode-feed.ts) and parsed as a feed. Errors are API errors: 422 for a malformed feed or one over
 * the size cap, 502/504 upstream.
 */
export async function fetchFeedOrAudio(url: string, deps: FeedFetchDeps): Promise<Fetched> {
  try {
    const response = await deps.outbound.safeFetchStream(url, {
      maxBytes: deps.maxBytes,
      headers: { accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, audio/*;q=0.8, */*;q=0.5" },
    });
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!response.ok) {
      response.body.destroy();
      throw new ApiError(502, "upstream_failed", `That URL answered HTTP ${response.status}.`);
    }
    if (type.startsWith("audio/") || type.startsWith("video/")) {
      response.body.destroy();
      return { kind: "audio", url };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const text = decodeFeed(Buffer.concat(chunks), response.headers.get("content-type"));
    if (type === "text/html" && !/^\s*(<\?xml|<rss|<feed|<rdf:RDF)/i.test(text)) {
      throw new ApiError(422, "not_a_feed", "That URL is a web page, not a podcast feed or an audio file.");
    }
    return { kind: "feed", feed: parseFeedOr422(text), url };
  } catch (error) {
    throw asApiError(error);
  }
}

export function parseFeedOr422(text: string): ParsedFeed {
  try {
    return parseFeed(text);
  } catch (error) {
    if (error instanceof FeedParseError) throw new ApiError(422, "feed_invalid", error.message);
    throw error;
  }
}
