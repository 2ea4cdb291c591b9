import { normalizeSegments } from "./normalize";
import type { Segment } from "./types";

/** The version of the Podcasting 2.0 JSON transcript format written. */
export const PODCAST_JSON_VERSION = "1.0.0";

/** One segment of a Podcasting 2.0 JSON transcript: times in seconds, `speaker` only where one is named. */
export interface PodcastJsonSegment {
  speaker?: string;
  startTime: number;
  endTime: number;
  body: string;
}

/**
 * The Podcasting 2.0 JSON transcript format (podcast namespace, transcripts.md):
 * `{"version":"1.0.0","segments":[{"speaker":…,"startTime":s,"endTime":s,"body":"…"}…]}`, one segment per
 * normalized cue (normalizeSegments rules), times in seconds with millisecond precision.
 */
export function renderPodcastJson(segments: readonly Segment[]): string {
  const out: PodcastJsonSegment[] = normalizeSegments(segments).map(({ start, end, text, speaker }) =>
    speaker === undefined
      ? { startTime: start, endTime: end, body: text }
      : { speaker, startTime: start, endTime: end, body: text },
  );
  return JSON.stringify({ version: PODCAST_JSON_VERSION, segments: out });
}
