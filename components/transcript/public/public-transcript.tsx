"use client";

import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent, type RefObject } from "react";
import { cuedSrc, formatClock, type Player } from "@/lib/browser/transcripts";
import { usePlayer } from "@/lib/browser/use-player";
import { momentAnchor } from "@/lib/browser/moment-link";
import { lineSegments, type Line } from "@/lib/publishing/public-lines";
import { transcriptJsonLd, type JsonLdHead } from "@/lib/publishing/json-ld";
import { CueList } from "@/components/transcript/cue-list";
import { EpisodeAudio } from "@/components/transcript/episode-audio";
import { SpeakerLabel } from "@/components/transcript/speaker-label";
import { FindBar } from "@/components/transcript/find-bar";
import { MarkedText } from "@/components/transcript/marked-text";
import { PlayerKeys } from "@/components/transcript/player-keys";
import { ReadingView } from "@/components/transcript/reading-view";
import { useTranscriptReader } from "@/components/transcript/use-transcript-reader";
import { ViewToggle } from "@/components/transcript/view-toggle";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ShareLinks } from "@/components/transcript/public/share-links";

export type { Line };

const PUBLIC_MARK = () => "rounded bg-amber-200 px-0.5 text-stone-900";

interface Props {
  lines: Line[];
  player: (Player & { title: string }) | null;
  /** A podcast episode's audio (its enclosure), played in an <audio> element where there is no embedded player. */
  audio?: string | null;
  /** The platform's link to a moment, to which "<seconds>s" is appended; null: the timestamp is an anchor to its line. */
  momentPrefix: string | null;
  /** ?q= from the URL (app/t/[slug]/search): the search works without JavaScript through the form's GET. */
  initialQuery: string;
  /** The page's schema.org VideoObject or PodcastEpisode but its transcript, taken from the lines (json-ld.ts says why). */
  jsonLd: JsonLdHead;
  /** The page's title, for the share sheet. */
  title: string;
}

// The transcript of a public page: the shared reader (components/transcript/use-transcript-reader.ts), with the
// page's player, share links and structured data. Server-rendered in full as the reading view (paragraphs; readable with
// JavaScript off: timestamps are plain links, a moment link's cue is an anchor that lands below the sticky
// player through CSS, search is a GET form); the cue list is one click away. With JavaScript, a timestamp or
// a cue seeks the embedded player through its postMessage API (YouTube's widget protocol, Vimeo's player.js
// protocol: no third-party script; a podcast episode's audio in an <audio> element), the cue being played is marked, a moment link (#t<s>-<i>,
// from Explore, the search API and MCP) is scrolled to below the sticky player, marked and the player cued
// there, and the search filters as you type. Where the lines carry word times (lib/publishing/public-lines.ts),
// each word is a seek target and the word being played is marked, as in the dashboard: the words become spans
// once the page runs (the server's HTML has none: without JavaScript nothing seeks, and a 38-minute automatic
// caption track would otherwise add ~6,300 spans to a cached page). On wide screens the player sits beside
// the text, as in the dashboard. Once the page runs: sharing the page or a moment (Web Share, else the
// clipboard) and the player's keys (components/transcript/player-keys.tsx).

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

export function PublicTranscript({ lines, player, audio = null, momentPrefix, initialQuery, jsonLd, title }: Props) {
  // false on the server and while hydrating (the same HTML), true after: then the words get their spans.
  const running = useHydrated();
  const segments = useMemo(() => lineSegments(lines, running), [lines, running]);
  const [cuedAt, setCuedAt] = useState<number | null>(null);
  const shownPlayer = useMemo(
    () => (player && cuedAt !== null ? { ...player, src: cuedSrc(player, cuedAt) } : player),
    [player, cuedAt],
  );
  const controls = usePlayer(shownPlayer);
  const { time, seek, cue, frameProps, mediaProps } = controls;
  const playable = player !== null || audio !== null;
  // A moment link (#t<seconds>-<index>) cues the player there, in a new frame (below).
  const onHashMoment = useCallback(
    (start: number) => {
      if (player) setCuedAt(start);
      cue(start);
    },
    [player, cue],
  );
  const body = useRef<HTMLDivElement>(null);
  const reader = useTranscriptReader({
    body,
    segments,
    time,
    find: "filter",
    initialQuery,
    onHashMoment,
  });
  const { active, moment } = reader;
  const pane = useRef<HTMLDivElement>(null);
  const structuredData = useMemo(() => transcriptJsonLd(jsonLd, segments), [jsonLd, segments]);
  useStickyHeight(pane);

  const onTimestamp = useCallback(
    (event: MouseEvent<HTMLAnchorElement>, seconds: number) => {
      if (!playable || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      if (seek(seconds)) event.preventDefault();
    },
    [playable, seek],
  );
  const stampHref = useCallback(
    (start: number, index: number) =>
      momentPrefix ? `${momentPrefix}${Math.floor(start)}s` : `#${momentAnchor(start, index)}`,
    [momentPrefix],
  );

  // The moment to share: the line being played, else the one a link opened at.
  const shared = active >= 0 ? active : moment;
  const sharedMoment =
    running && shared >= 0
      ? { anchor: momentAnchor(segments[shared].start, shared), clock: formatClock(segments[shared].start) }
      : null;

  return (
    <div
      className={
        playable
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
      {!player && audio && (
        // A podcast episode: its audio pinned like a video's player (one control row high, so that a phone's first
        // screen is the text).
        <div
          ref={pane}
          className="sticky top-0 z-20 -mx-4 bg-stone-50 px-4 py-2 sm:mx-0 sm:px-0 lg:top-4 lg:py-0"
          data-pinned
          data-testid="public-player-pane"
        >
          <EpisodeAudio src={audio} title={title} mediaProps={mediaProps} />
          {running && <PlayerKeys player={controls} className="mt-2 max-lg:hidden" />}
        </div>
      )}

      <div ref={body} className="flex min-w-0 flex-col gap-4">
        {running && <ShareLinks title={title} moment={sharedMoment} />}
        <FindBar reader={reader}>
          <ViewToggle reader={reader} />
        </FindBar>

        {reader.view === "reading" ? (
          <ReadingView
            segments={segments}
            paragraphs={reader.paragraphs}
            active={active}
            activeWord={reader.activeWord}
            moment={moment}
            matches={reader.matches}
            currentMatch={-1}
            only={reader.only}
            onSeek={playable ? seek : null}
            stampHref={stampHref}
            onStampClick={onTimestamp}
          />
        ) : (
          <CueList
            segments={segments}
            only={reader.only}
            seekable={playable}
            className="transcript-lines flex flex-col gap-1"
            testId="public-segments"
            line={(segment, i) => (
              <li
                key={i}
                id={momentAnchor(segment.start, i)}
                className={i === active ? "bg-sky-100" : i === moment ? "bg-amber-100" : undefined}
                aria-current={i === active ? "true" : undefined}
                data-index={i}
              >
                <a
                  href={stampHref(segment.start, i)}
                  onClick={(event) => onTimestamp(event, segment.start)}
                  data-roving
                  rel="nofollow"
                >
                  {formatClock(segment.start)}
                </a>
                <span>
                  {segment.speaker !== undefined && segment.speaker !== segments[i - 1]?.speaker && (
                    <SpeakerLabel name={segment.speaker} />
                  )}
                  <MarkedText text={segment.text} index={i} matches={reader.matches} markClass={PUBLIC_MARK} />
                </span>
              </li>
            )}
          />
        )}
      </div>
    </div>
  );
}
