import { ApiError } from "@/lib/http/errors";
import type { Outbound } from "@/lib/http/outbound";
import { asApiError } from "@/lib/captions/upstream-errors";
import { lookupEpisode, lookupFeedUrl, parseAppleLink } from "@/lib/podcasts/apple";
import { formatSeconds } from "@/lib/podcasts/duration";
import { fetchFeedOrAudio } from "@/lib/podcasts/fetch-feed";
import type { FeedEpisode } from "@/lib/podcasts/parse-feed";
import { rememberEpisodeTranscripts } from "@/lib/podcasts/episode-transcripts";
import { serializeEpisode } from "@/lib/podcasts/serializers";
import { DEFAULT_EPISODES_PAGE, type ResolveRequest, type ResolveResponse } from "@/lib/podcasts/schemas";
import type { FeedParseSettings, ReadFeed } from "@/lib/podcasts/parse-off-thread";

export interface ResolveDeps {
  outbound: Outbound;
  /** ITUNES_LOOKUP_URL */
  lookupUrl: string;
  /** PODCAST_FEED_MAX_BYTES */
  maxBytes: number;
  /** Hosts exempt from the private-address rule (OUTBOUND_ALLOW_PRIVATE_HOSTS: test fakes only). */
  allowPrivateFor?: (host: string) => boolean;
  /** PODCAST_FEED_TIMEOUT_SECONDS: fetching a feed, body included. */
  timeoutMs?: number;
  /** How feeds are parsed in worker threads (PODCAST_FEED_PARSE_*). */
  parse?: FeedParseSettings;
}

export interface Resolved {
  kind: "feed" | "episode" | "audio";
  feed: ReadFeed | null;
  /** The feed's own URL (kind feed/episode). */
  feedUrl: string | null;
  episode: FeedEpisode | null;
  audioUrl: string | null;
}

/** Pasted podcast schemes (feed://, itpc://, pcast://, podcast://) are https. */
export function normalizeFeedUrl(raw: string): string {
  return raw.trim().replace(/^(feed|itpc|pcast|podcast):\/\//i, "https://");
}

/** A URL → what it is (see the endpoint's description). Shared by POST /v1/podcast/resolve and imports. */
export async function resolvePodcastUrl(raw: string, deps: ResolveDeps): Promise<Resolved> {
  const text = normalizeFeedUrl(raw);
  let url: URL;
  try {
    url = deps.outbound.checkUrl(text);
  } catch (error) {
    throw asApiError(error);
  }
  const apple = parseAppleLink(url);
  if (apple) {
    const feedUrl = await wrap(() => lookupFeedUrl(deps.outbound, deps.lookupUrl, apple.showId));
    const fetched = await fetchFeedOrAudio(feedUrl, deps);
    if (fetched.kind !== "feed")
      throw new ApiError("upstream_failed", "Apple Podcasts names a feed that is not a feed.");
    if (!apple.episodeId) return { kind: "feed", feed: fetched.feed, feedUrl, episode: null, audioUrl: null };
    const listed = await wrap(() => lookupEpisode(deps.outbound, deps.lookupUrl, apple.showId, apple.episodeId!));
    if (!listed) throw new ApiError("podcast_not_found", "Apple Podcasts does not list that episode.");
    const episode =
      fetched.feed.episodes.find(
        (e) => (listed.guid && e.guid === listed.guid) || (listed.audioUrl && e.audioUrl === listed.audioUrl),
      ) ??
      (listed.audioUrl
        ? {
            guid: listed.guid ?? listed.audioUrl,
            title: listed.title,
            audioUrl: listed.audioUrl,
            published: listed.published,
            duration: listed.durationMs ? formatSeconds(Math.round(listed.durationMs / 1000)) : null,
            transcripts: [],
          }
        : null);
    if (!episode)
      throw new ApiError("podcast_not_found", "That episode has no audio Apple Podcasts or the feed lists.");
    return { kind: "episode", feed: fetched.feed, feedUrl, episode, audioUrl: episode.audioUrl };
  }
  const fetched = await fetchFeedOrAudio(url.href, deps);
  if (fetched.kind === "audio")
    return { kind: "audio", feed: null, feedUrl: null, episode: null, audioUrl: fetched.url };
  return { kind: "feed", feed: fetched.feed, feedUrl: fetched.url, episode: null, audioUrl: null };
}

/** POST /v1/podcast/resolve. Episodes that publish a transcript are remembered for the caller (POST /v1/transcript uses it). */
export async function resolvePodcast(
  userId: string,
  request: ResolveRequest,
  deps: ResolveDeps,
): Promise<ResolveResponse> {
  const resolved = await resolvePodcastUrl(request.url, deps);
  if (resolved.kind === "audio") return { kind: "audio", show: null, episodes: null, audio_url: resolved.audioUrl };
  const show = { title: resolved.feed!.title };
  if (resolved.kind === "episode") {
    await rememberEpisodeTranscripts(userId, [resolved.episode!], { ...deps, show: show.title });
    return { kind: "episode", show, episodes: [serializeEpisode(resolved.episode!)], audio_url: resolved.audioUrl };
  }
  // A feed answers one page of its episodes; those on it that publish a transcript are remembered.
  const all = resolved.feed!.episodes;
  const offset = request.offset ?? 0;
  const page = all.slice(offset, offset + (request.limit ?? DEFAULT_EPISODES_PAGE));
  await rememberEpisodeTranscripts(userId, page, { ...deps, show: show.title });
  const next = offset + page.length;
  return {
    kind: "feed",
    show,
    episodes: page.map(serializeEpisode),
    audio_url: null,
    total_episodes: resolved.feed!.totalEpisodes,
    next_offset: page.length > 0 && next < all.length ? next : null,
  };
}

async function wrap<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asApiError(error);
  }
}
