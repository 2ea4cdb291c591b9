import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { asApiError } from "@/lib/captions/upstream-errors";
import { durationSeconds } from "@/lib/podcasts/duration";
import { rememberEpisodeTranscripts } from "@/lib/podcasts/episode-transcripts";
import type { FeedEpisode } from "@/lib/podcasts/parse-feed";
import { resolvePodcastUrl } from "@/lib/podcasts/resolve-podcast";
import { listPlaylist, parsePlaylistUrl } from "@/lib/imports/playlist";
import type { ListDeps, SourceItem } from "@/lib/imports/list-source";
import { fetchFeedForCheck, type FeedValidators, type FetchCost } from "@/lib/follows/fetch-feed";
import type { FollowKind } from "@/lib/follows/schemas";
import { FOLLOW_LIST_MAX } from "@/lib/follows/deps";
import { channelIdOfUrl, discoverFeedPush, youtubeChannelPush, type PushSource } from "@/lib/follows/push-discovery";

/** The transcripts the feed publishes for these items, remembered for the user (POST /v1/transcript reads them). */
export async function rememberNew(userId: string, listed: Listed, guids: ReadonlySet<string>, deps: ListDeps) {
  if (!listed.episodes || guids.size === 0) return;
  const episodes = listed.episodes.filter((e) => guids.has(e.guid.slice(0, 1000)));
  await rememberEpisodeTranscripts(userId, episodes, { ...deps, show: listed.title });
}

/** Items a check looks at: a feed's or channel's newest (feeds and channels list newest first). */
export function listLimit(): number {
  return Math.min(env().IMPORT_MAX_ITEMS, FOLLOW_LIST_MAX);
}

export interface Listed extends FetchCost {
  kind: FollowKind;
  /** The feed's or channel's own URL: what is followed (an Apple link's feed, a channel's Videos tab). */
  url: string;
  title: string | null;
  /** null: the feed had not changed (304). */
  items: SourceItem[] | null;
  validators: FeedValidators;
  moved: boolean;
  /** A feed's episodes (for remembering the transcripts the new ones publish). */
  episodes?: readonly FeedEpisode[];
  /** Where the source can be pushed from (WebSub); null: nowhere; absent: not known this time (304). */
  push?: PushSource | null;
}

function episodeItems(episodes: readonly FeedEpisode[]): SourceItem[] {
  const seen = new Set<string>();
  const items: SourceItem[] = [];
  for (const e of episodes.slice(0, listLimit())) {
    const guid = e.guid.slice(0, 1000);
    if (seen.has(guid)) continue;
    seen.add(guid);
    items.push({
      guid,
      title: e.title.slice(0, 500),
      url: e.audioUrl,
      kind: "audio",
      durationSeconds: durationSeconds(e.duration),
      published: e.published,
      bytes: e.bytes,
    });
  }
  return items;
}

async function listChannel(url: string, deps: ListDeps): Promise<Listed> {
  try {
    const listed = await listPlaylist(url, {
      binary: deps.ytdlp?.binary,
      extraArgs: deps.ytdlp?.extraArgs,
      outbound: deps.outbound,
      max: listLimit(),
      signal: deps.signal,
    });
    const channel = url.startsWith("https://www.youtube.com/playlist?")
      ? null
      : (channelIdOfUrl(url) ?? listed.channelId);
    return {
      kind: "youtube",
      url,
      push: youtubeChannelPush(channel, env().FOLLOW_PUSH_YOUTUBE_HUB),
      title: listed.title,
      items: listed.entries.map((e) => ({
        guid: `youtube:${e.id}`,
        title: e.title.slice(0, 500),
        url: `https://www.youtube.com/watch?v=${e.id}`,
        kind: "video",
        durationSeconds: e.durationSeconds,
      })),
      validators: { etag: null, lastModified: null },
      moved: false,
      requests: 1,
      bytes: 0,
    };
  } catch (error) {
    throw asApiError(error);
  }
}

/**
 * What a new follow is: a YouTube channel or playlist (listed by yt-dlp), or a feed (a feed URL or an Apple
 * Podcasts show, fetched through the guard and parsed off-thread). An audio file is not something to follow.
 */
export async function resolveFollowSource(raw: string, deps: ListDeps): Promise<Listed> {
  const playlist = parsePlaylistUrl(raw);
  if (playlist) return listChannel(playlist, deps);
  const resolved = await resolvePodcastUrl(raw, deps);
  if (!resolved.feed || !resolved.feedUrl)
    throw new ApiError("not_a_feed", "That URL is an audio or video file, not a feed: follow the show's feed.");
  return {
    kind: "podcast",
    url: resolved.feedUrl,
    title: resolved.feed.title,
    push: discoverFeedPush(resolved.feed, null, resolved.feedUrl),
    items: episodeItems(resolved.feed.episodes),
    episodes: resolved.feed.episodes,
    validators: { etag: null, lastModified: null },
    moved: false,
    requests: 1,
    bytes: 0,
  };
}

/** A check's listing: a feed fetched conditionally (304 → `items: null`), a channel listed again. */
export async function listForCheck(
  follow: { kind: string; url: string; etag: string | null; lastModified: string | null },
  deps: ListDeps,
): Promise<Listed> {
  if (follow.kind === "youtube") return listChannel(follow.url, deps);
  const fetched = await fetchFeedForCheck(follow.url, { etag: follow.etag, lastModified: follow.lastModified }, deps);
  const base = {
    kind: "podcast" as const,
    url: fetched.url,
    validators: { etag: fetched.etag, lastModified: fetched.lastModified },
    moved: fetched.moved,
    requests: fetched.requests,
    bytes: fetched.bytes,
  };
  if (!fetched.changed) return { ...base, title: null, items: null };
  return {
    ...base,
    title: fetched.feed.title,
    push: discoverFeedPush(fetched.feed, fetched.link, fetched.url),
    items: episodeItems(fetched.feed.episodes),
    episodes: fetched.feed.episodes,
  };
}
