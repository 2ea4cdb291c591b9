"use client";

import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { chapterStarts, findMatches, matchCountLabel, playingLine } from "@/lib/browser/transcript-view";
import { keepInView, landBelowPinned } from "@/lib/browser/keep-in-view";
import { momentAnchor, momentSegment, parseMomentHash } from "@/lib/browser/moment-link";
import { activeWordIndex, readingParagraphs, READING_PARAGRAPHS, type TimedSegment } from "@/lib/formats/paragraphs";

// The reader both transcript pages share (the dashboard's viewer, the public page): the reading view's
// paragraphs and chapters, which view is shown (the reading view or the cue list), the line and word being
// played, the search, and the moment a link names. The pages differ where they say so here: how a search shows
// (`find`), where a moment comes from (`startAt` or the page's `#t…` hash) and whether the line being played is
// kept in view (`follow`). Every element it looks for is inside `body`, the page's element around the view shown.
// What a page adds (the dashboard's editing, the public page's player and share links) stays with the page.

export type ReaderView = "reading" | "cues";

export interface ReaderOptions {
  /** The page's element around the view shown: the cues, lines and marks are looked for in it. */
  body: RefObject<HTMLElement | null>;
  segments: readonly TimedSegment[];
  /** The transcript's chapters, where it has any: each starts a paragraph. */
  chapters?: readonly { start: number; title: string }[];
  /** The player's time; null before it reports. */
  time: number | null;
  /**
   * "step": every match is marked and the reader steps through them, the first one shown as soon as it is
   * typed (the dashboard). "filter": only the paragraphs and lines that match are shown (the public page).
   */
  find: "step" | "filter";
  /** The find box's first text (the dashboard's `&find=`, the public page's `?q=`). */
  initialQuery?: string;
  /** The moment a link opened the transcript at, in seconds (History's `&t=`): landed on once. */
  startAt?: number | null;
  /**
   * The page's `#t<seconds>-<index>` moment links, read again on every change of the hash and landed on once per
   * history entry (coming back to it keeps where the reader was); called with the moment's start to cue the player.
   */
  onHashMoment?: ((start: number) => void) | null;
  /** Whether the line being played starts kept in view (it stops when the reader scrolls away); undefined: never. */
  follow?: boolean;
}

const NO_CHAPTERS: readonly { start: number; title: string }[] = [];

export function useTranscriptReader({
  body,
  segments,
  chapters: chapterList = NO_CHAPTERS,
  time,
  find,
  initialQuery = "",
  startAt = null,
  onHashMoment = null,
  follow: followFirst,
}: ReaderOptions) {
  const [view, setView] = useState<ReaderView>("reading");
  const [query, setQuery] = useState(initialQuery);
  const [current, setCurrent] = useState(0);
  const [follow, setFollow] = useState(followFirst ?? false);
  const [hashMoment, setHashMoment] = useState(-1);

  const chapters = useMemo(() => chapterStarts(segments, chapterList), [segments, chapterList]);
  const paragraphs = useMemo(
    () => readingParagraphs(segments, READING_PARAGRAPHS, chapters.keys()),
    [segments, chapters],
  );
  const startMoment = useMemo(
    () => (startAt === null ? -1 : momentSegment(segments, { seconds: startAt, segment: null })),
    [segments, startAt],
  );
  const moment = onHashMoment ? hashMoment : startMoment;
  const needle = query.trim();
  const matches = useMemo(() => findMatches(segments, query), [segments, query]);
  const matched = useMemo(() => new Set(matches.map((match) => match.segment)), [matches]);
  // The segments a filtering search shows: those that match, and the moment a link named (its words may match the
  // index's stemming only); null: all.
  const only = useMemo(() => {
    if (find !== "filter" || !needle) return null;
    const shown = new Set(matched);
    if (moment >= 0 && shown.size > 0) shown.add(moment);
    return shown;
  }, [find, needle, matched, moment]);
  // At a landed moment, the moment's line is the one being played (one line marked, not also the one before it).
  const active = playingLine(segments, time, moment);
  const activeWord = active >= 0 ? activeWordIndex(segments[active].words, time) : -1;
  const currentMatch = matches.length === 0 ? -1 : Math.min(current, matches.length - 1);

  /** A segment's element in the view shown: its cue in the reading view, its line in the cue list. */
  const segmentElement = (index: number) =>
    view === "reading"
      ? (body.current?.querySelector<HTMLElement>(`[id="${momentAnchor(segments[index].start, index)}"]`) ?? null)
      : (body.current?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? null);

  // A moment link in the page's hash: marked, the player cued there; again on every change of the hash (a
  // timestamp link without a player, the back button).
  useEffect(() => {
    if (!onHashMoment) return;
    const land = () => {
      const parsed = parseMomentHash(window.location.hash);
      if (!parsed) return;
      const index = momentSegment(segments, parsed);
      if (index < 0) return;
      setHashMoment(index);
      onHashMoment(segments[index].start);
    };
    land();
    window.addEventListener("hashchange", land);
    return () => window.removeEventListener("hashchange", land);
  }, [segments, onHashMoment]);

  // The moment lands once (for a hash, once per history entry): its cue below the sticky player and toolbar.
  // Following waits until playback moves on, so that it does not scroll the moment away.
  const landed = useRef(false);
  useEffect(() => {
    if (moment < 0) return;
    if (onHashMoment) {
      const state = (window.history.state ?? {}) as Record<string, unknown>;
      const key = window.location.hash;
      if (state.verbatimLanded === key) return;
      const element = segmentElement(moment);
      if (element) landBelowPinned(element);
      window.history.replaceState({ ...state, verbatimLanded: key }, "");
      return;
    }
    if (landed.current) return;
    landed.current = true;
    const element = segmentElement(moment);
    if (element) landBelowPinned(element);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [moment, segments, view]);

  // The line (or word) being played stays in view while following, once playback has moved: a player reports
  // 0 s as soon as it loads, which must not scroll the page away from its top.
  const moved = (time ?? 0) > 0;
  useEffect(() => {
    if (!follow || !moved || active < 0 || active === moment) return;
    const element =
      view === "reading"
        ? (body.current?.querySelector<HTMLElement>(".reading [data-playing]") ?? segmentElement(active))
        : segmentElement(active);
    if (element) keepInView(element);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, activeWord, follow, moved, view]);

  // Typing jumps to the first match (and stops following playback, which would scroll it away).
  useEffect(() => {
    if (find !== "step" || matches.length === 0) return;
    const mark = body.current?.querySelector<HTMLElement>(`[data-match="0"]`);
    if (mark) keepInView(mark);
  }, [body, find, matches]);

  // Reading elsewhere pauses following: a wheel or touch scroll once playback has started.
  const started = time !== null;
  useEffect(() => {
    if (!follow || !started) return;
    const pause = () => setFollow(false);
    window.addEventListener("wheel", pause, { passive: true });
    window.addEventListener("touchmove", pause, { passive: true });
    return () => {
      window.removeEventListener("wheel", pause);
      window.removeEventListener("touchmove", pause);
    };
  }, [follow, started]);

  /** Shows match `index` (wrapping around) and stops following playback. */
  function goTo(index: number) {
    if (matches.length === 0) return;
    const next = (index + matches.length) % matches.length;
    setCurrent(next);
    setFollow(false);
    const mark = body.current?.querySelector<HTMLElement>(`[data-match="${next}"]`);
    if (mark) keepInView(mark);
  }

  return {
    find,
    segments,
    chapters,
    paragraphs,
    view,
    toggleView: () => setView((shown) => (shown === "reading" ? "cues" : "reading")),
    query,
    needle,
    /** The find box's text changed: from its first match again; a search stops following playback. */
    search: (text: string) => {
      setQuery(text);
      setCurrent(0);
      if (text.trim()) setFollow(false);
    },
    matches,
    /** The segments holding a match. */
    matched,
    only,
    currentMatch,
    countLabel: matchCountLabel(currentMatch, matches.length, query),
    step: (delta: number) => goTo(currentMatch + delta),
    active,
    activeWord,
    moment,
    follow,
    toggleFollow: () => setFollow((on) => !on),
  };
}

export type TranscriptReader = ReturnType<typeof useTranscriptReader>;
