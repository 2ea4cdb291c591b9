import type { FeedEpisode } from "@/lib/podcasts/parse-feed";
import type { EpisodeOut } from "@/lib/podcasts/schemas";

export function serializeEpisode(episode: FeedEpisode): EpisodeOut {
  return {
    guid: episode.guid,
    title: episode.title,
    audio_url: episode.audioUrl,
    published: episode.published,
    duration: episode.duration,
  };
}
