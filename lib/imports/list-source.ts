import { env } from "@/lib/env";
import { parseSourceUrl } from "@/lib/sources";
import { durationSeconds } from "@/lib/podcasts/duration";
import { rememberEpisodeTranscripts } from "@/lib/podcasts/episode-transcripts";
import { resolvePodcastUrl, type ResolveDeps } from "@/lib/podcasts/resolve-podcast";
import { listPlaylist, parsePlaylistUrl } from "@/lib/imports/playlist";

export interface SourceItem {
  guid: string;
  title: string;
  /** Podcast: the episode's audio URL; YouTube: the video's watch URL. */
  url: string;
  kind: "audio" | "video";
  durationSeconds: number;
  /** When the feed says the episode was published (ISO 8601), where it says. */
  published?: string | null;
  /** An episode's audio file size in bytes, where its feed's enclosure says. */
  bytes?: number | null;
}

export interface ListedSource {
  title: string | null;
  items: SourceItem[];
}

export interface ListDeps extends ResolveDeps {
  /** yt-dlp, which lists playlists and channels; its connections pass `outbound`'s guard. */
  ytdlp?: { binary?: string; extraArgs?: readonly string[] };
  signal?: AbortSignal;
}

/**
 * A feed, Apple Podcasts show or YouTube playlist/channel → its items, at most IMPORT_MAX_ITEMS (a feed's
 * first ones: feeds list newest first). Episodes that publish a transcript are remembered for the user.
 */
export async function listImportSource(userId: string, url: string, deps: ListDeps): Promise<ListedSource> {
  const settings = env();
  const max = settings.IMPORT_MAX_ITEMS;
  const playlist = parsePlaylistUrl(url);
  if (playlist) {
    const listed = await listPlaylist(playlist, {
      binary: deps.ytdlp?.binary,
      extraArgs: deps.ytdlp?.extraArgs,
      outbound: deps.outbound,
      max,
      signal: deps.signal,
    });
    return {
      title: listed.title,
      items: listed.entries.map((e) => ({
        guid: `youtube:${e.id}`,
        title: e.title,
        url: `https://www.youtube.com/watch?v=${e.id}`,
        kind: "video",
        durationSeconds: e.durationSeconds,
      })),
    };
  }
  const resolved = await resolvePodcastUrl(url, deps);
  if (!resolved.feed) {
    return {
      title: null,
      items: [
        {
          guid: resolved.audioUrl!,
          title: resolved.audioUrl!,
          url: resolved.audioUrl!,
          kind: "audio",
          durationSeconds: 0,
        },
      ],
    };
  }
  // An Apple Podcasts episode link imports that episode; a feed or show, its newest `max` episodes.
  const episodes =
    resolved.kind === "episode" && resolved.episode ? [resolved.episode] : resolved.feed.episodes.slice(0, max);
  await rememberEpisodeTranscripts(userId, episodes, { ...deps, show: resolved.feed.title });
  const seen = new Set<string>();
  const items: SourceItem[] = [];
  for (const e of episodes) {
    if (seen.has(e.guid)) continue; // a feed that repeats a guid lists that episode once
    seen.add(e.guid);
    items.push({
      guid: e.guid.slice(0, 1000),
      title: e.title.slice(0, 500),
      url: e.audioUrl,
      kind: "audio",
      durationSeconds: durationSeconds(e.duration),
      published: e.published,
    });
  }
  return { title: resolved.feed.title, items };
}

/** The history key an item would get (platform and video id), or null when it is not a source we take. */
export function itemSource(item: Pick<SourceItem, "url" | "kind">, allowPrivateFor?: (host: string) => boolean) {
  const parsed = parseSourceUrl(item.url, { allowPrivateFor });
  return parsed && !parsed.needsResolve ? parsed : null;
}
