// The logic of reading a transcript while it plays, shared by the dashboard's viewer and the public
// page: which line is being played, what a search finds, where chapters begin, and what the embedded
// players (YouTube's widget protocol, Vimeo's player.js protocol, both over postMessage) report.
// Pure functions; the components hold the state.

import type { Player } from "@/lib/browser/transcripts";
import { findMatches, type SearchMatch } from "@/lib/search/find-matches";

export { findMatches, type SearchMatch };

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** A player's reported time counts as inside a line this much before the line starts (reports lag). */
const LEAD_SECONDS = 0.25;

/**
 * The line being played at `seconds`: the last one that has started (so the highlight stays on a line
 * through a pause after it), or -1 before the first. Segments are in start order; binary search.
 */
export function activeSegmentIndex(segments: readonly Pick<TimedText, "start">[], seconds: number | null): number {
  if (seconds === null || !Number.isFinite(seconds)) return -1;
  let low = 0;
  let high = segments.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (segments[mid].start <= seconds + LEAD_SECONDS) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * The line being played where a link landed on moment `moment` (-1: none): a player cued at a moment reports the
 * whole second it was cued at (YouTube's `start=`), which may fall in the line before the moment's, or reports the
 * moment's start where another line starts in the same instant. Until playback moves on from there, the line being
 * played is the moment's (one line marked, not also the one before it).
 */
export function playingLine(
  segments: readonly Pick<TimedText, "start">[],
  seconds: number | null,
  moment: number,
): number {
  const found = activeSegmentIndex(segments, seconds);
  if (seconds === null || moment < 0 || moment >= segments.length || found === moment) return found;
  const start = segments[moment].start;
  return seconds >= Math.floor(start) - LEAD_SECONDS && seconds <= start + LEAD_SECONDS ? moment : found;
}

export interface TextPart {
  text: string;
  /** The match's index among all matches, or null for text between matches. */
  match: number | null;
}

/** One segment's text cut at its matches (from findMatches), for rendering with <mark>. */
export function splitByMatches(text: string, segment: number, matches: readonly SearchMatch[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  matches.forEach((match, index) => {
    if (match.segment !== segment) return;
    if (match.from > at) parts.push({ text: text.slice(at, match.from), match: null });
    parts.push({ text: text.slice(match.from, match.to), match: index });
    at = match.to;
  });
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), match: null });
  return parts;
}

/** "3 of 12", "No matches", or "" with no query. */
export function matchCountLabel(current: number, total: number, query: string): string {
  if (!query.trim()) return "";
  if (total === 0) return "No matches";
  return `${current + 1} of ${total}`;
}

/** A filtering search's count (the public page): "3 matches for “grit” in 2 lines", "No matches for “zebra”". */
export function filterCountLabel(matches: number, lines: number, query: string): string {
  const needle = query.trim();
  if (matches === 0) return `No matches for “${needle}”`;
  return `${matches} ${matches === 1 ? "match" : "matches"} for “${needle}” in ${lines} ${lines === 1 ? "line" : "lines"}`;
}

/**
 * Where chapters begin: segment index → the titles of the chapters that start there (the first
 * segment at or after the chapter's start). Chapters after the last segment are left out.
 */
export function chapterStarts(
  segments: readonly Pick<TimedText, "start">[],
  chapters: readonly { start: number; title: string }[],
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const sorted = chapters
    .filter((chapter) => Number.isFinite(chapter.start) && chapter.title.trim() !== "")
    .sort((a, b) => a.start - b.start);
  let index = 0;
  for (const chapter of sorted) {
    while (index < segments.length && segments[index].start < chapter.start - 0.0005) index++;
    if (index >= segments.length) break;
    out.set(index, [...(out.get(index) ?? []), chapter.title.trim()]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Embedded players

/** The playback position a player reports in a postMessage, if the message is such a report. */
export function reportedTime(kind: Player["kind"], data: unknown): number | null {
  let message: unknown = data;
  if (typeof data === "string") {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!message || typeof message !== "object") return null;
  const m = message as { event?: string; info?: { currentTime?: unknown }; data?: { seconds?: unknown } };
  const value =
    kind === "youtube"
      ? m.event === "infoDelivery"
        ? m.info?.currentTime
        : undefined
      : m.event === "timeupdate" || m.event === "playProgress"
        ? m.data?.seconds
        : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Whether a player's postMessage says it is playing (true) or stopped (false); null when the message says
 * neither. YouTube's widget reports `playerState` (1 playing, 3 buffering to play), Vimeo sends play and pause.
 */
export function reportedPlaying(kind: Player["kind"], data: unknown): boolean | null {
  let message: unknown = data;
  if (typeof data === "string") {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!message || typeof message !== "object") return null;
  const m = message as { event?: string; info?: unknown };
  if (kind === "vimeo") return m.event === "play" ? true : m.event === "pause" || m.event === "ended" ? false : null;
  const state =
    m.event === "onStateChange"
      ? m.info
      : m.event === "infoDelivery" && m.info && typeof m.info === "object"
        ? (m.info as { playerState?: unknown }).playerState
        : undefined;
  return typeof state === "number" ? state === 1 || state === 3 : null;
}

/** What to send a player once its frame has loaded so that it starts reporting its position (and playing or not). */
export function listenMessages(kind: Player["kind"]): string[] {
  return kind === "youtube"
    ? [JSON.stringify({ event: "listening", id: "verbatim", channel: "widget" })]
    : ["timeupdate", "playProgress", "play", "pause", "ended"].map((value) =>
        JSON.stringify({ method: "addEventListener", value }),
      );
}
