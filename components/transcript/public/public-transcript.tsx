"use client";

import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type MouseEvent,
  type RefObject,
} from "react";
import { cuedSrc, formatClock, type Player } from "@/lib/browser/transcripts";
import { activeSegmentIndex, findMatches, splitByMatches, type SearchMatch } from "@/lib/browser/transcript-view";
import { usePlayer } from "@/lib/browser/use-player";
import { rovingFocus, rovingKeyDown, useRovingFocus } from "@/lib/browser/roving-focus";
import { landBelowPinned } from "@/lib/browser/keep-in-view";
import { momentAnchor, momentSegment, parseMomentHash } from "@/lib/browser/moment-link";
import { activeWordIndex, readingParagraphs } from "@/lib/formats/paragraphs";
import { lineSegments, type Line } from "@/lib/publishing/public-lines";
import { ReadingView } from "@/components/transcript/reading-view";
import { PlayerKeys } from "@/components/transcript/player-keys";
import { ShareLinks } from "@/components/transcript/public/share-links";
import { videoJsonLd, type VideoJsonLdHead } from "@/lib/publishing/json-ld";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";

export type { Line };

const noSubscription = () => () => {};

interface Props {
  lines: Line[];
  player: (Player & { title: string }) | null;
  /** The platform's link to a moment, to which "<seconds>s" is appended; null: the timestamp is an anchor to its line. */
  momentPrefix: string | null;
  /** ?q= from the URL (app/t/[slug]/search): the search works without JavaScript through the form's GET. */
  initialQuery: string;
  /** The page's schema.org VideoObject but its transcript, which is taken from the lines (json-ld.ts says why). */
  jsonLd: VideoJsonLdHead;
  /** The page's title, for the share sheet. */
  title: string;
}

// The transcript of a public page. Server-rendered in full as the reading view (paragraphs; readable with
// JavaScript off: timestamps are plain links, a moment link's cue is an anchor that lands below the sticky
// player through CSS, search is a GET form); the cue list is one click away. With JavaScript, a timestamp or
// a cue seeks the embedded player through its postMessage API (YouTube's widget protocol, Vimeo's player.js
// protocol: no third-party script), the cue being played is marked and followed, a moment link (#t<s>-<i>,
// from Explore, the search API and MCP) is scrolled to below the sticky player, marked and the player cued
// there, and the search filters as you type. Where the lines carry word times (lib/publishing/public-lines.ts),
// each word is a seek target and the word being played is marked, as in the dashboard: the words become spans
// once the page runs (the server's HTML has none: without JavaScript nothing seeks, and a 38-minute automatic
// caption track would otherwise add ~6,300 spans to a cached page). On wide screens the player sits beside
// the text, as in the dashboard. Once the page runs: sharing the page or a moment (Web Share, else the
// clipboard) and the player's keys (components/transcript/player-keys.tsx).

/** A line's text with the search's matches marked. */
function Highlighted({ text, index, matches }: { text: string; index: number; matches: SearchMatch[] }) {
  return (
    <>
      {splitByMatches(text, index, matches).map((part, at) =>
        part.match === null ? (
          part.text
        ) : (
          <mark key={at} className="rounded bg-amber-200 px-0.5 text-stone-900">
            {part.text}
          </mark>
        ),
      )}
    </>
  );
}

/** What the page's sticky elements cover, for the cues' scroll-margin (app/globals.css `.reading`; wide screens, where the player is beside the text, have their own). */
function useStickyHeight(pane: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const observer = new ResizeObserver(() =>
      document.documentElement.style.setProperty("--sticky-height", `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [pane]);
}

export function PublicTranscript({ lines, player, momentPrefix, initialQuery, jsonLd, title }: Props) {
  // false on the server and while hydrating (the same HTML), true after: then the words get their spans.
  const running = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const segments = useMemo(() => lineSegments(lines, running), [lines, running]);
  const paragraphs = useMemo(() => readingParagraphs(segments), [segments]);
  const [query, setQuery] = useState(initialQuery);
  const [view, setView] = useState<"reading" | "cues">("reading");
  const [moment, setMoment] = useState(-1);
  const [cuedAt, setCuedAt] = useState<number | null>(null);
  const shownPlayer = useMemo(
    () => (player && cuedAt !== null ? { ...player, src: cuedSrc(player, cuedAt) } : player),
    [player, cuedAt],
  );
  const controls = usePlayer(shownPlayer);
  const { time, seek, cue, frameProps } = controls;
  const needle = query.trim();

  const found = useMemo(() => findMatches(segments, needle), [segments, needle]);
  const matchedLines = useMemo(() => {
    const lines = new Set(found.map((match) => match.segment));
    // The moment a link named stays shown under a search (its words may match the index's stemming only).
    if (moment >= 0 && lines.size > 0) lines.add(moment);
    return lines;
  }, [found, moment]);
  const matchCount = found.length;
  const lineCount = new Set(found.map((match) => match.segment)).size;
  const current = activeSegmentIndex(segments, time);
  const currentWord = current >= 0 ? activeWordIndex(segments[current].words, time) : -1;
  const list = useRef<HTMLOListElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  const structuredData = useMemo(() => videoJsonLd(jsonLd, segments), [jsonLd, segments]);
  useRovingFocus(list, [segments, needle, view]);
  useStickyHeight(pane);

  // A moment link (#t<seconds>-<index>): marked, the player cued there, and scrolled to below the sticky
  // player; again on every change of the hash (a timestamp link without a player, the back button). The
  // landing is remembered in this history entry, so that coming back to it keeps where the reader was.
  useEffect(() => {
    const land = () => {
      const parsed = parseMomentHash(window.location.hash);
      if (!parsed) return;
      const index = momentSegment(segments, parsed);
      if (index < 0) return;
      setMoment(index);
      setCuedAt(segments[index].start);
      cue(segments[index].start);
    };
    land();
    window.addEventListener("hashchange", land);
    return () => window.removeEventListener("hashchange", land);
  }, [segments, cue]);

  useEffect(() => {
    if (moment < 0) return;
    const state = (window.history.state ?? {}) as Record<string, unknown>;
    const key = window.location.hash;
    if (state.verbatimLanded === key) return;
    const element = document.getElementById(momentAnchor(segments[moment].start, moment));
    const line = view === "cues" ? element?.closest("li") : element;
    if (line) landBelowPinned(line as HTMLElement);
    window.history.replaceState({ ...state, verbatimLanded: key }, "");
  }, [moment, segments, view]);

  const onTimestamp = useCallback(
    (event: MouseEvent<HTMLAnchorElement>, seconds: number) => {
      if (!player || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      if (seek(seconds)) event.preventDefault();
    },
    [player, seek],
  );
  const stampHref = useCallback(
    (start: number, index: number) =>
      momentPrefix ? `${momentPrefix}${Math.floor(start)}s` : `#${momentAnchor(start, index)}`,
    [momentPrefix],
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const url = new URL(window.location.href);
    if (query.trim()) url.searchParams.set("q", query.trim());
    else url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  };

  // The moment to share: the line being played, else the one a link opened at.
  const shared = current >= 0 ? current : moment;
  const sharedMoment =
    running && shared >= 0
      ? { anchor: momentAnchor(segments[shared].start, shared), clock: formatClock(segments[shared].start) }
      : null;

  return (
    <div
      className={
        player
          ? "flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-8"
          : "flex flex-col gap-4"
      }
    >
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: structuredData }} />
      {player && (
        // Stays in view while the text scrolls: stuck to the top above it on phones (compact), beside it on wide screens.
        <div
          ref={pane}
          className="sticky top-0 z-20 -mx-4 bg-stone-50 px-4 py-2 sm:mx-0 sm:px-0 lg:top-4 lg:py-0"
          data-pinned
          data-testid="public-player-pane"
        >
          <div className="mx-auto aspect-video max-h-[28vh] max-w-full overflow-hidden rounded-lg bg-black sm:max-h-[40vh] lg:max-h-none lg:w-full">
            <iframe
              {...frameProps}
              // A new frame for a cued address: changing a loaded frame's src would add an entry to the
              // window's history (the back button would then step the player back, not leave the page).
              key={shownPlayer?.src ?? player.src}
              src={shownPlayer?.src ?? player.src}
              title={`Player: ${player.title}`}
              className="h-full w-full"
              allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
              data-testid="public-player"
            />
          </div>
          {running && <PlayerKeys player={controls} className="mt-2 max-lg:hidden" />}
        </div>
      )}

      <div className="flex min-w-0 flex-col gap-4">
        {running && <ShareLinks title={title} moment={sharedMoment} />}
        <form role="search" method="get" onSubmit={onSubmit} className="flex flex-wrap items-center gap-2">
          <label htmlFor="transcript-search" className="sr-only">
            Search this transcript
          </label>
          <input
            id="transcript-search"
            name="q"
            type="search"
            value={query}
            placeholder="Search this transcript"
            onChange={(event) => setQuery(event.target.value)}
            className={`min-w-0 flex-1 basis-40 ${controlClass}`}
            data-testid="transcript-search"
          />
          <button type="submit" className={buttonClass()}>
            Search
          </button>
          <button
            type="button"
            className={buttonClass("secondary", "md")}
            aria-pressed={view === "cues"}
            onClick={() => setView((shown) => (shown === "reading" ? "cues" : "reading"))}
            data-testid="view-toggle"
          >
            Cue list
          </button>
          {needle && (
            <p className="w-full text-sm text-stone-600" aria-live="polite" data-testid="search-count">
              {matchCount === 0
                ? `No matches for “${needle}”`
                : `${matchCount} ${matchCount === 1 ? "match" : "matches"} for “${needle}” in ${lineCount} ${lineCount === 1 ? "line" : "lines"}`}
            </p>
          )}
        </form>

        {view === "reading" ? (
          <ReadingView
            segments={segments}
            paragraphs={paragraphs}
            active={current}
            activeWord={currentWord}
            moment={moment}
            matches={found}
            currentMatch={-1}
            only={needle ? matchedLines : null}
            onSeek={player ? seek : null}
            stampHref={stampHref}
            onStampClick={onTimestamp}
          />
        ) : (
          <ol
            ref={list}
            onKeyDown={rovingKeyDown}
            onFocus={rovingFocus}
            aria-label="Transcript lines (arrow keys move between timestamps)"
            className="transcript-lines flex flex-col gap-1"
            data-testid="public-segments"
          >
            {segments.map((segment, i) =>
              !needle || matchedLines.has(i) ? (
                <li
                  key={i}
                  id={`t${Math.floor(segment.start)}-${i}`}
                  className={i === current ? "bg-sky-100" : i === moment ? "bg-amber-100" : undefined}
                  aria-current={i === current ? "true" : undefined}
                >
                  <a
                    href={
                      momentPrefix
                        ? `${momentPrefix}${Math.floor(segment.start)}s`
                        : `#t${Math.floor(segment.start)}-${i}`
                    }
                    onClick={(event) => onTimestamp(event, segment.start)}
                    data-roving
                    rel="nofollow"
                  >
                    {formatClock(segment.start)}
                  </a>
                  <span>
                    <Highlighted text={segment.text} index={i} matches={found} />
                  </span>
                </li>
              ) : null,
            )}
          </ol>
        )}
      </div>
    </div>
  );
}
