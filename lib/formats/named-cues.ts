import { cleanText, isBlank, normalizeSegments } from "./normalize";
import type { Segment } from "./types";

/** A normalized cue (normalizeSegments rules) with the speaker its source named, if any. */
export interface NamedCue {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** Seconds → the start in ms normalizeSegments gives a cue (rounded, clamped); -1 when not a finite number. */
function startMs(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return -1;
  const ms = Math.round(value * 1000);
  return ms > 0 ? Math.min(ms, 1e13) : 0;
}

/**
 * The segments as every renderer prints them (normalizeSegments), each with its speaker. Normalizing
 * merges only segments that start on the same millisecond, so a cue's speaker is the first one named among
 * the segments kept at its start.
 */
export function namedCues(segments: readonly Segment[]): NamedCue[] {
  const speakers = new Map<number, string>();
  for (const segment of segments) {
    if (segment == null || isBlank(segment.text) || isBlank(segment.speaker)) continue;
    let start = startMs(segment.start);
    if (start < 0) start = startMs(segment.end);
    if (start >= 0 && !speakers.has(start)) speakers.set(start, cleanText(segment.speaker));
  }
  return normalizeSegments(segments).map(({ start, end, text }) => {
    const speaker = speakers.get(Math.round(start * 1000));
    return speaker === undefined ? { start, end, text } : { start, end, text, speaker };
  });
}
