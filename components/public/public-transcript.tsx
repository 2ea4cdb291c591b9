"use client";

import { useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { formatClock, type Player } from "@/lib/client/transcripts";
import { activeSegmentIndex, findMatches, splitByMatches, type SearchMatch } from "@/lib/client/transcript-view";
import { usePlayer } from "@/lib/client/use-player";
import { rovingFocus, rovingKeyDown, useRovingFocus } from "@/lib/client/roving-focus";
import { videoJsonLd, type VideoJsonLdHead } from "@/lib/publishing/json-ld";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";

interface Segment {
  start: number;
  end: number;
  text: string;
}

/**
 * A line as [start, end, text]: the props travel in the page's React Server Components payload, and on a
 * cached page every byte counts (issue 25); named keys cost about 30 bytes a line there.
 */
export type Line = [start: number, end: number, text: string];

interface Props {
  lines: Line[];
  player: (Player & { title: string }) | null;
  /** The platform's link to a moment, to which "<seconds>s" is appended; null: the timestamp is an anchor to its line. */
  momentPrefix: string | null;
  /** ?q= from the URL (app/t/[slug]/search): the search works without JavaScript through the form's GET. */
  initialQuery: string;
  /** The page's schema.org VideoObject but its transcript, which is taken from the lines (json-ld.ts says why). */
  jsonLd: VideoJsonLdHead;
}

// The transcript of a public page. Server-rendered in full (readable with JavaScript off: timestamps are
// plain links, search is a GET form). With JavaScript, a timestamp seeks the embedded player through its
// postMessage API (YouTube's widget protocol, Vimeo's player.js protocol: no third-party script), the
// line being played is highlighted, and the search filters as you type.

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

export function PublicTranscript({ lines, player, momentPrefix, initialQuery, jsonLd }: Props) {
  const segments: Segment[] = useMemo(() => lines.map(([start, end, text]) => ({ start, end, text })), [lines]);
  const [query, setQuery] = useState(initialQuery);
  const { time, seek, frameProps } = usePlayer(player);
  const needle = query.trim();

  const found = useMemo(() => findMatches(segments, needle), [segments, needle]);
  const matchedLines = useMemo(() => new Set(found.map((match) => match.segment)), [found]);
  const matchCount = matchedLines.size;
  const current = activeSegmentIndex(segments, time);
  const list = useRef<HTMLOListElement>(null);
  const structuredData = useMemo(() => videoJsonLd(jsonLd, segments), [jsonLd, segments]);
  useRovingFocus(list, [segments, needle]);

  const onTimestamp = (event: MouseEvent<HTMLAnchorElement>, seconds: number) => {
    if (!player || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (seek(seconds)) event.preventDefault();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const url = new URL(window.location.href);
    if (query.trim()) url.searchParams.set("q", query.trim());
    else url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  };

  return (
    <div className="flex flex-col gap-6">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: structuredData }} />
      {player && (
        // Stays in view while the text scrolls: stuck to the top (compact on phones).
        <div
          className="sticky top-0 z-20 -mx-4 bg-stone-50/95 px-4 py-2 backdrop-blur sm:mx-0 sm:px-0"
          data-pinned
          data-testid="public-player-pane"
        >
          <div className="mx-auto aspect-video max-h-[28vh] max-w-full overflow-hidden rounded-lg bg-black sm:max-h-[40vh]">
            <iframe
              {...frameProps}
              src={player.src}
              title={`Player: ${player.title}`}
              className="h-full w-full"
              allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
              data-testid="public-player"
            />
          </div>
        </div>
      )}

      <form role="search" method="get" onSubmit={onSubmit} className="flex flex-wrap items-center gap-2">
        <label htmlFor="transcript-search" className="text-sm font-medium">
          Search this transcript
        </label>
        <input
          id="transcript-search"
          name="q"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className={`min-w-0 flex-1 ${controlClass}`}
          data-testid="transcript-search"
        />
        <button type="submit" className={buttonClass()}>
          Search
        </button>
        {needle && (
          <p className="w-full text-sm text-stone-600" aria-live="polite" data-testid="search-count">
            {matchCount} {matchCount === 1 ? "line matches" : "lines match"} “{needle}”
          </p>
        )}
      </form>

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
              className={i === current ? "bg-sky-100" : undefined}
              aria-current={i === current ? "true" : undefined}
            >
              <a
                href={
                  momentPrefix ? `${momentPrefix}${Math.floor(segment.start)}s` : `#t${Math.floor(segment.start)}-${i}`
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
    </div>
  );
}
