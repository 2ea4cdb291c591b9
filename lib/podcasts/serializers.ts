import type { FeedEpisode } from "@/lib/podcasts/parse-feed";
import type { EpisodeOut } from "@/lib/podcasts/schemas";
import { bestTranscript, isPlainText } from "@/lib/podcasts/episode-transcripts";

export function serializeEpisode(episode: FeedEpisode): EpisodeOut {
  // A text/plain file only names the speakers over recognised audio: the episode still needs recognition.
  const transcript = bestTranscript(episode.transcripts);
  return {
    guid: episode.guid,
    title: episode.title,
    audio_url: episode.audioUrl,
    published: episode.published,
    duration: episode.duration,
    has_transcript: transcript !== null && !isPlainText(transcript),
  };
}
