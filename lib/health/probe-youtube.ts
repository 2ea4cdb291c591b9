import { SourceError } from "@/lib/captions/types";
import { createYoutubeProvider, type YoutubeProviderOptions } from "@/lib/captions/youtube/provider";
import { isOutboundError } from "@/lib/http/outbound";
import type { YoutubeAnswer } from "@/lib/health/setup-checks";

// The YouTube setup check's one real request: InnerTube's /player for one public video, the way the caption
// lookup asks (youtubei.js through the outbound guard, the proxies, the clients, the PO token provider), within
// a total deadline and without yt-dlp (checked on its own line). What came back is judged in setup-checks.ts.

/** "Me at the zoo", the first video on YouTube: public, captioned and not going anywhere. */
export const PROBE_VIDEO_ID = "jNQXAC9IVRw";

/** Seconds the whole check may take (every client and proxy included). */
export const YOUTUBE_PROBE_TIMEOUT_MS = 15_000;

/** YouTube's answers about the video itself: it answered, so it can be reached. */
const ANSWERS_ABOUT_THE_VIDEO = new Set([
  "video_unavailable",
  "age_restricted",
  "live_not_finished",
  "video_unplayable",
]);

export async function probeYoutube(
  options: Omit<YoutubeProviderOptions, "fallback">,
  timeoutMs = YOUTUBE_PROBE_TIMEOUT_MS,
): Promise<YoutubeAnswer> {
  // A provider of its own: the check's blocks never cool down the exits the app's lookups use.
  const provider = createYoutubeProvider({
    ...options,
    timeoutMs: Math.min(options.timeoutMs ?? timeoutMs, timeoutMs),
  });
  try {
    const info = await provider.getInfo({
      platform: "youtube",
      videoId: PROBE_VIDEO_ID,
      canonicalUrl: `https://www.youtube.com/watch?v=${PROBE_VIDEO_ID}`,
    });
    return { ok: true, detail: `answers (${info.servedBy ?? "InnerTube"})` };
  } catch (error) {
    if (error instanceof SourceError && ANSWERS_ABOUT_THE_VIDEO.has(error.code))
      return { ok: true, detail: `answers (about the test video: ${error.code})` };
    if (error instanceof SourceError || isOutboundError(error))
      return { ok: false, code: error.code, detail: error.message };
    return { ok: false, code: "upstream_failed", detail: error instanceof Error ? error.message : String(error) };
  }
}
