import { CaptionParseError, type Dropped } from "@/lib/captions/parse";
import type { CaptionAnswer, CaptionJob, TrackBounds } from "@/lib/captions/caption-job";
import { movable, runOffThread, type OffThreadSettings } from "@/lib/process/off-thread";
import type { Segment } from "@/lib/formats/types";

// Caption files are parsed in a worker thread (lib/process/off-thread.ts), never on the event loop: a track
// is up to 20 MiB of text from a platform, a podcast host or an author's PATCH, and reading one that size
// (JSON.parse, the per-cue text cleaning, rolling-caption de-duplication) is long CPU work. The thread
// has a deadline and a memory limit; a file over them is refused like an unreadable one. A platform's track
// comes back normalized and within TRACK_BOUNDS (caption-job.ts), so what the event loop then does with its
// segments is bounded too.

const SETTINGS: OffThreadSettings = { threads: 2, timeoutMs: 30_000, memoryMb: 1024 };

const tooMuch = () =>
  new CaptionParseError("The caption track is too large or too complex to read (over the time or memory it may take).");

/** A track read in full that has more lines or text than one transcript keeps (TRACK_BOUNDS). */
export class CaptionTrackTooLarge extends CaptionParseError {}

/**
 * parseCaptions then captionSegments and normalizeSegments within TRACK_BOUNDS (or only tidy, for
 * `track: null`) in a worker thread; throws CaptionParseError (CaptionTrackTooLarge past the bounds). Bytes
 * are decoded there, and moved there rather than copied (not to be used afterwards): copying a large text or
 * buffer into the thread's workerData would hold the event loop for the copy.
 */
export async function parseCaptionsOffThread(
  body: CaptionJob["body"],
  format: CaptionJob["format"],
  track: CaptionJob["track"],
  settings: OffThreadSettings = SETTINGS,
  bounds?: TrackBounds,
): Promise<Segment[]> {
  return (await parseCaptionsOffThreadCounted(body, format, track, settings, bounds)).segments;
}

/** parseCaptionsOffThread, with what the file held that could not be read (`dropped`, absent when nothing). */
export async function parseCaptionsOffThreadCounted(
  body: CaptionJob["body"],
  format: CaptionJob["format"],
  track: CaptionJob["track"],
  settings: OffThreadSettings = SETTINGS,
  bounds?: TrackBounds,
): Promise<{ segments: Segment[]; dropped?: Dropped }> {
  const transfer: ArrayBuffer[] = [];
  const move = (file: string | Uint8Array) => {
    if (typeof file === "string") return file;
    const moved = movable(file);
    transfer.push(moved.buffer);
    return moved;
  };
  const files = Array.isArray(body) ? body.map(move) : move(body);
  const job: CaptionJob = { kind: "captions", body: files, format, track, ...(bounds ? { bounds } : {}) };
  const outcome = await runOffThread<CaptionAnswer>(job, settings, tooMuch, transfer);
  if (outcome.ok) {
    const segments = JSON.parse(outcome.json) as Segment[];
    return outcome.dropped ? { segments, dropped: outcome.dropped } : { segments };
  }
  throw outcome.tooLarge ? new CaptionTrackTooLarge(outcome.message) : new CaptionParseError(outcome.message);
}
