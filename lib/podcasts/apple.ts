import type { Outbound } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";

// Apple Podcasts links → the show's RSS feed, through the public iTunes lookup API
// (https://itunes.apple.com/lookup?id=<show id>&entity=podcast answers {resultCount, results: [{feedUrl, …}]};
// with entity=podcastEpisode it also lists the show's recent episodes, each with trackId and episodeGuid).

const APPLE_HOSTS = new Set(["podcasts.apple.com", "itunes.apple.com"]);

export interface AppleLink {
  showId: string;
  /** The `i=` parameter of an episode link. */
  episodeId: string | null;
}

/** podcasts.apple.com/<country>/podcast/<slug>/id<digits>[?i=<digits>] → ids; anything else → null. */
export function parseAppleLink(url: URL): AppleLink | null {
  if (!APPLE_HOSTS.has(url.hostname.toLowerCase()) || url.port !== "") return null;
  const match = /\/id(\d{1,15})\/?$/.exec(url.pathname);
  if (!match) return null;
  const episode = url.searchParams.get("i");
  return { showId: match[1]!, episodeId: episode && /^\d{1,20}$/.test(episode) ? episode : null };
}

export interface AppleEpisode {
  guid: string | null;
  title: string;
  audioUrl: string | null;
  published: string | null;
  durationMs: number | null;
}

interface LookupResult {
  wrapperType?: string;
  kind?: string;
  trackId?: number;
  collectionName?: string;
  feedUrl?: string;
  trackName?: string;
  episodeGuid?: string;
  episodeUrl?: string;
  releaseDate?: string;
  trackTimeMillis?: number;
}

async function lookup(
  outbound: Outbound,
  base: string,
  id: string,
  entity: "podcast" | "podcastEpisode",
): Promise<LookupResult[]> {
  const url = new URL(base);
  url.searchParams.set("id", id);
  url.searchParams.set("entity", entity);
  if (entity === "podcastEpisode") url.searchParams.set("limit", "200");
  const response = await outbound.safeFetchBuffer(url, {
    maxBytes: 5 * 1024 * 1024,
    headers: { accept: "application/json" },
  });
  if (!response.ok) throw new ApiError("upstream_failed", `Apple Podcasts' lookup answered HTTP ${response.status}.`);
  let body: { results?: unknown };
  try {
    body = JSON.parse(response.body.toString("utf8")) as { results?: unknown };
  } catch {
    throw new ApiError("upstream_failed", "Apple Podcasts' lookup answered something other than JSON.");
  }
  return Array.isArray(body.results)
    ? (body.results.filter((r) => typeof r === "object" && r !== null) as LookupResult[])
    : [];
}

/** The show's feed URL. 404 when Apple does not know the id or lists no feed for it. */
export async function lookupFeedUrl(outbound: Outbound, base: string, showId: string): Promise<string> {
  const results = await lookup(outbound, base, showId, "podcast");
  const show = results.find((r) => typeof r.feedUrl === "string" && r.feedUrl !== "");
  if (!show?.feedUrl) throw new ApiError("podcast_not_found", "Apple Podcasts has no public feed for that show.");
  return show.feedUrl;
}

/** One episode of the show as Apple lists it (its recent 200), or null. */
export async function lookupEpisode(
  outbound: Outbound,
  base: string,
  showId: string,
  episodeId: string,
): Promise<AppleEpisode | null> {
  const results = await lookup(outbound, base, showId, "podcastEpisode");
  const found = results.find((r) => String(r.trackId) === episodeId && r.wrapperType === "podcastEpisode");
  if (!found) return null;
  return {
    guid: typeof found.episodeGuid === "string" ? found.episodeGuid : null,
    title: typeof found.trackName === "string" ? found.trackName : "Untitled",
    audioUrl: typeof found.episodeUrl === "string" ? found.episodeUrl : null,
    published:
      typeof found.releaseDate === "string" && !Number.isNaN(Date.parse(found.releaseDate))
        ? new Date(found.releaseDate).toISOString()
        : null,
    durationMs: typeof found.trackTimeMillis === "number" ? found.trackTimeMillis : null,
  };
}
