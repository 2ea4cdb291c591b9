import { CaptionParseError } from "@/lib/captions/parse";
import type { CaptionJob, CaptionOutcome } from "@/lib/captions/caption-job";
import { runOffThread, type OffThreadSettings } from "@/lib/process/off-thread";
import type { Segment } from "@/lib/formats/types";

// Caption files are parsed in a worker thread (lib/process/off-thread.ts), never on the event loop: a track
// is up to 20 MiB of text from a platform, a podcast host or an author's PATCH, and reading one that size
// (JSON.parse, the per-cue text cleaning, rolling-caption de-duplication) takes seconds of CPU. The thread
// has a deadline and a memory limit; a file over them is refused like an unreadable one.

const SETTINGS: OffThreadSettings = { threads: 2, timeoutMs: 30_000, memoryMb: 1024 };

const tooMuch = () =>
  new CaptionParseError("The caption track is too large or too complex to read (over the time or memory it may take).");

/** parseCaptions then captionSegments (or tidy, for `track: null`) in a worker thread; throws CaptionParseError. */
export async function parseCaptionsOffThread(
  body: CaptionJob["body"],
  format: CaptionJob["format"],
  track: CaptionJob["track"],
  settings: OffThreadSettings = SETTINGS,
): Promise<Segment[]> {
  const job: CaptionJob = { kind: "captions", body, format, track };
  const outcome = await runOffThread<CaptionOutcome>(job, settings, tooMuch);
  if (!outcome.ok) throw new CaptionParseError(outcome.message);
  return outcome.segments;
}
