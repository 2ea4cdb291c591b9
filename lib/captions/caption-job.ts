// A caption file → its segments, or why not: what the parse thread (lib/process/parse-worker.ts) runs for a
// caption track (parse-off-thread.ts sends it there). The same parser as on the calling thread (parse/).
import { CaptionParseError, captionSegments, mergeHlsVtt, parseCaptions, tidy } from "@/lib/captions/parse";
import type { CaptionFormat } from "@/lib/captions/parse";
import type { CaptionKind } from "@/lib/captions/types";
import type { Segment } from "@/lib/formats/types";

export interface CaptionJob {
  kind: "captions";
  /** The file's text, or the WebVTT segments of an HLS rendition in order. */
  body: string | string[];
  /** The declared format (the content decides when it is recognisable). */
  format: CaptionFormat;
  /** The track's kind (captionSegments); null: an author's own file, only tidied. */
  track: CaptionKind | null;
}

export type CaptionOutcome = { ok: true; segments: Segment[] } | { ok: false; message: string };

export function readCaptionJob(job: CaptionJob): CaptionOutcome {
  try {
    const cues = typeof job.body === "string" ? parseCaptions(job.body, job.format) : mergeHlsVtt(job.body);
    return { ok: true, segments: job.track === null ? tidy(cues) : captionSegments(cues, job.track) };
  } catch (error) {
    if (error instanceof CaptionParseError) return { ok: false, message: error.message };
    throw error;
  }
}
