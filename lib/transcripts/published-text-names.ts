import type { Segment } from "@/lib/formats";
import type { Outbound } from "@/lib/http/outbound";
import { log } from "@/lib/observability/logger";
import { runOffThread } from "@/lib/process/off-thread";
import { fetchPublishedText, findPublishedTranscript, isPlainText } from "@/lib/podcasts/episode-transcripts";

// A recognised podcast episode whose feed publishes only a text transcript: the speakers that text names
// are laid over the recognised segments, in a worker thread (lib/edits/lay-names.ts answers the job). Never
// fails the job: on any failure or a poor match the recognised segments are returned as they are, and the
// log says why.

/** What the worker is given. */
export interface NamesJob {
  kind: "names";
  segments: Segment[];
  text: string;
}

/** What it answers: null when the text names no one. */
export type NamesOutcome = { segments: Segment[]; match: number; applied: boolean; names: number } | null;

const THREAD = { threads: 1, timeoutMs: 30_000, memoryMb: 512 };

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
    const job: NamesJob = { kind: "names", segments, text };
    const laid = await runOffThread<NamesOutcome>(job, THREAD, () => new Error("the alignment took too long"));
    if (!laid) return segments;
    log.info(
      { transcriptUrl: published.transcriptUrl, names: laid.names, match: Math.round(laid.match * 100) / 100 },
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
