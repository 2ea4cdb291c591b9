// Moment links: the two forms a link to a moment of a transcript takes today, read back into
// where the viewer lands. Pure and browser-safe.
//   - public pages, Explore, the search API's `page` and MCP answers: /t/{slug}#t{whole seconds}-{segment index}
//   - the dashboard's viewer, from History and the dashboard's search: /dashboard?transcript={id}&t={seconds}
import { parseMomentSeconds } from "@/lib/browser/search";

export interface Moment {
  /** Seconds into the transcript. */
  seconds: number;
  /** The segment the link names (the `#t…-N` form), or null when only a time is given. */
  segment: number | null;
}

const HASH = /^#?t(\d{1,6})(?:-(\d{1,7}))?$/;

/** `#t2554-542` (or `#t2554`) → the moment; null for anything else. */
export function parseMomentHash(hash: string | null | undefined): Moment | null {
  const match = HASH.exec(hash ?? "");
  if (!match) return null;
  return { seconds: Number(match[1]), segment: match[2] === undefined ? null : Number(match[2]) };
}

/** The `#t…-N` anchor of a segment: the id its paragraph or cue carries, and what public links point at. */
export function momentAnchor(start: number, index: number): string {
  return `t${Math.max(0, Math.floor(start))}-${index}`;
}

/** A moment from an address: its `#t…` hash, else its `t=` parameter (History's `&t=891.44`). */
export function momentFromLocation(hash: string, search: string): Moment | null {
  const fromHash = parseMomentHash(hash);
  if (fromHash) return fromHash;
  const seconds = parseMomentSeconds(new URLSearchParams(search).get("t"));
  return seconds === null ? null : { seconds, segment: null };
}

/**
 * The segment a moment lands on: the one it names when that segment starts in the named second (a link made
 * before the transcript changed falls back to its time), else the last segment that has started by then.
 * -1 for an empty transcript.
 */
export function momentSegment(segments: readonly { start: number }[], moment: Moment): number {
  if (segments.length === 0) return -1;
  const named = moment.segment;
  if (named !== null && named < segments.length && Math.floor(segments[named].start) === Math.floor(moment.seconds)) {
    return named;
  }
  if (named !== null) {
    // The hash's whole second: the first segment that starts in it, where one does.
    const first = firstStartingAt(segments, Math.floor(moment.seconds));
    if (first >= 0) return first;
  }
  // Times are compared to the millisecond: `t` of a viewer link is the segment's own start.
  const at = Math.round(moment.seconds * 1000);
  let low = 0;
  let high = segments.length - 1;
  let found = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (Math.round(segments[mid].start * 1000) <= at) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** The first segment whose start's whole second is `second`, or -1. */
function firstStartingAt(segments: readonly { start: number }[], second: number): number {
  let low = 0;
  let high = segments.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (Math.floor(segments[mid].start) < second) low = mid + 1;
    else high = mid;
  }
  return low < segments.length && Math.floor(segments[low].start) === second ? low : -1;
}
