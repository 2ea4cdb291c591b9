import { SourceError, type CaptionProvider, type CaptionTrack, type VideoInfo } from "@/lib/captions/types";
import type { Segment } from "@/lib/formats/types";
import type { ParsedSource } from "@/lib/sources";

/**
 * A caption source whose videos are given up front, for tests of the transcripts domain (history,
 * allowance, cache). It counts its calls; `delayMs` keeps a fetch in flight so requests overlap.
 * Platform behaviour itself is tested against the YouTube and yt-dlp fakes.
 */
export class StaticCaptionProvider implements CaptionProvider {
  infoCalls = 0;
  trackCalls = 0;

  constructor(
    private readonly videos: Record<
      string,
      { title: string; durationSeconds: number; tracks: Omit<CaptionTrack, "ref">[] }
    >,
    private readonly delayMs = 0,
  ) {}

  async getInfo(source: ParsedSource): Promise<VideoInfo> {
    this.infoCalls += 1;
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const video = this.videos[source.videoId];
    if (!video) throw new SourceError("video_unavailable", "This video does not exist or is private.");
    return {
      platform: source.platform,
      videoId: source.videoId,
      canonicalUrl: source.canonicalUrl,
      title: video.title,
      durationSeconds: video.durationSeconds,
      tracks: video.tracks.map((track) => ({ ...track, ref: `${track.lang}/${track.kind}` })),
    };
  }

  async fetchTrack(info: VideoInfo, track: CaptionTrack): Promise<Segment[]> {
    this.trackCalls += 1;
    const count = Math.max(1, Math.floor(info.durationSeconds / 5));
    return Array.from({ length: count }, (_, i) => ({
      start: i * 5,
      end: i * 5 + 4.5,
      text: `${track.lang} line ${i + 1} of ${info.title}.`,
    }));
  }
}
