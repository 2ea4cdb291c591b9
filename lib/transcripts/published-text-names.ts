import type { Segment } from "@/lib/formats";
import type { Outbound } from "@/lib/http/outbound";
import { log } from "@/lib/observability/logger";
import { textTurns } from "@/lib/captions/parse/text-turns";
import { layNames } from "@/lib/edits/lay-names";
import { diffBudget } from "@/lib/edits/word-diff";
import { fetchPublishedText, findPublishedTranscript, isPlainText } from "@/lib/podcasts/episode-transcripts";

// A recognised podcast episode whose feed publishes only a text transcript: the speakers that text names
// are laid over the recognised segments (lib/edits/lay-names.ts). Never fails the job: on any failure or a
// poor match the recognised segments are returned as they are, and the log says why.

/** The diff steps one episode's alignment may take (as one correction's save). */
const ALIGN_DIFF_STEPS = 5_000_000;

export async function withPublishedTextNames(
  who: { userId: string; platform: string; videoId: string; lang: string },
  segments: Segment[],
  deps: { outbound: Outbound },
): Promise<Segment[]> {
  if (who.platform !== "podcast") return segments;
  try {
    const published = await findPublishedTranscript(who.userId, who.videoId, who.lang);
    if (!published || !isPlainText(published)) return segments;
    const text = await fetchPublishedText(published, deps);
    if (text === null) return segments;
    const turns = textTurns(text);
    if (!turns) return segments;
    const laid = layNames(segments, turns, diffBudget(ALIGN_DIFF_STEPS));
    log.info(
      { transcriptUrl: published.transcriptUrl, match: Math.round(laid.match * 100) / 100, applied: laid.applied },
      laid.applied
        ? "speakers named by the podcast's text transcript"
        : "the podcast's text transcript matches the recognised words too poorly to take its names",
    );
    return laid.segments;
  } catch (error) {
    log.warn(
      { videoId: who.videoId, err: error instanceof Error ? error.message : String(error) },
      "a podcast's text transcript could not be used for speaker names",
    );
    return segments;
  }
}
