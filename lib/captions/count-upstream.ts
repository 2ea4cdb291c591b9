import { SourceError, type CaptionProvider } from "@/lib/captions/types";
import { isOutboundError } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";
import { countUpstream } from "@/lib/observability/metrics";

// Platform requests as metrics (verbatim_upstream_requests_total): by platform, path and outcome, the
// outcome being "ok" or the error code a caller would see (upstream_blocked, video_unavailable, …).

/** The error code of a failed platform request: ours, the outbound guard's, or "upstream_failed". */
export function upstreamErrorCode(error: unknown): string {
  if (error instanceof SourceError || isOutboundError(error) || error instanceof ApiError) return error.code;
  return "upstream_failed";
}

/** Counts every call of `provider` as a request on `path` (e.g. "yt-dlp"). */
export function countedProvider(provider: CaptionProvider, path: string): CaptionProvider {
  async function counted<T>(platform: string, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      countUpstream(platform, path, "ok");
      return result;
    } catch (error) {
      countUpstream(platform, path, upstreamErrorCode(error));
      throw error;
    }
  }
  return {
    getInfo: (source, ...rest) => counted(source.platform, () => provider.getInfo(source, ...rest)),
    fetchTrack: (info, track) => counted(info.platform, () => provider.fetchTrack(info, track)),
  };
}
