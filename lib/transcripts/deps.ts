import { env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import { createYoutubeProvider } from "@/lib/captions/youtube/provider";
import { createYtDlpProvider } from "@/lib/captions/ytdlp/provider";
import type { CaptionProvider } from "@/lib/captions/types";
import type { CaptionDeps } from "@/lib/transcripts/fetch-captions";
import type { ResolveDeps } from "@/lib/transcripts/resolve-source";

export type TranscriptDeps = CaptionDeps & ResolveDeps;

let deps: TranscriptDeps | undefined;

/** The real sources, from settings: youtubei.js for YouTube, yt-dlp for the other platforms. */
export function transcriptDeps(): TranscriptDeps {
  if (deps) return deps;
  const settings = env();
  const outbound = appOutbound();
  const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  const youtube = createYoutubeProvider({ outbound, innertubeBaseUrl: settings.YOUTUBE_BASE_URL, proxyUrl: settings.OUTBOUND_PROXY });
  const ytdlp = createYtDlpProvider({ outbound, binary: settings.YTDLP_PATH });
  const providers: Partial<Record<string, CaptionProvider>> = {
    youtube,
    x: ytdlp,
    tiktok: ytdlp,
    facebook: ytdlp,
    instagram: ytdlp,
    rednote: ytdlp,
    vimeo: ytdlp,
  };
  deps = {
    outbound,
    allowPrivateFor: exempt.size > 0 ? (host) => exempt.has(host) : undefined,
    providerFor: (platform) => providers[platform] ?? null,
    cacheHours: settings.TRANSCRIPT_CACHE_HOURS,
  };
  return deps;
}
