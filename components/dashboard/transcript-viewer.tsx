"use client";

import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  captionKindLabel,
  downloadHref,
  fetchTranscript,
  FORMAT_TABS,
  formatClock,
  isVideoFilename,
  mediaHref,
  platformLabel,
  playerFor,
  sourceHref,
  transcriptKey,
  type Format,
  type Player,
  type Transcript,
} from "@/lib/client/transcripts";
import { activeSegmentIndex, chapterStarts, findMatches, matchCountLabel, splitByMatches, type SearchMatch } from "@/lib/client/transcript-view";
import { usePlayer } from "@/lib/client/use-player";
import { renderText, renderTimestampedText } from "@/lib/formats/text";
import { PublishButton } from "@/components/dashboard/publish-button";

type Segment = NonNullable<Transcript["segments"]>[number];
type PlayerState = ReturnType<typeof usePlayer>;

const buttonClass =
  "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:opacity-50 dark:border-stone-600 dark:bg-stone-900 dark:hover:bg-stone-800";

/**
 * One transcript to read while it plays: on wide screens the player (sticky) beside the text, on phones a
 * compact player stuck to the top above it. The line being played is highlighted and kept in view
 * (until the reader scrolls away or turns it off), the text can be searched, copied as readable text and
 * downloaded (.txt and .srt first); every format has its own tab.
 */
export function TranscriptViewer({ transcript, startAt = null }: { transcript: Transcript; startAt?: number | null }) {
  const embedded = useMemo(() => playerFor(transcript, startAt), [transcript, startAt]);
  const upload = transcript.platform === "upload";
  const player = usePlayer(embedded, startAt);
  const hasPlayer = embedded !== null || upload;
  const title = transcript.title || transcript.video_id;

  return (
    <article className="flex min-w-0 flex-col gap-5" aria-labelledby="transcript-title" data-testid="transcript-viewer">
      <TranscriptHeader transcript={transcript} />
      <div className={hasPlayer ? "grid min-w-0 gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-6" : "min-w-0"}>
        {hasPlayer && (
          // Phones: a compact player stuck to the top while the text scrolls under it. Wide screens: sticky beside it.
          <div className="sticky top-0 z-20 -mx-4 bg-stone-50/95 px-4 py-2 backdrop-blur sm:mx-0 sm:px-0 lg:top-4 lg:bg-transparent lg:py-0 lg:backdrop-blur-none dark:bg-stone-950/95 lg:dark:bg-transparent" data-testid="player-pane">
            {embedded ? <PlayerFrame player={embedded} title={title} frameProps={player.frameProps} /> : <UploadPlayer transcript={transcript} mediaProps={player.mediaProps} />}
          </div>
        )}
        <FormatTabs transcript={transcript} player={player} canSeek={hasPlayer} />
      </div>
    </article>
  );
}

function TranscriptHeader({ transcript }: { transcript: Transcript }) {
  const sourceLink = sourceHref(transcript.source_url);
  return (
    <header className="flex min-w-0 flex-col gap-3">
      <h2 id="transcript-title" className="text-xl font-semibold break-words" data-testid="transcript-title">
        {transcript.title || transcript.video_id}
      </h2>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <Detail label="Platform" value={platformLabel(transcript.platform)} testId="transcript-platform" />
        <Detail label="Language" value={transcript.lang} testId="transcript-lang" />
        <Detail label="Captions" value={captionKindLabel(transcript)} testId="transcript-caption-kind" />
        <Detail label="Duration" value={formatClock(transcript.duration_seconds)} testId="transcript-duration" />
        <div className="flex min-w-0 gap-1.5">
          <dt className="text-stone-500 dark:text-stone-400">Source</dt>
          <dd className="max-w-xs min-w-0 truncate" data-testid="transcript-source">
            {sourceLink ? (
              <a href={sourceLink} target="_blank" rel="noopener noreferrer" className="underline decoration-stone-300 hover:decoration-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:decoration-stone-600 dark:hover:decoration-stone-200">
                {sourceLink.replace(/^https?:\/\//, "")}
              </a>
            ) : transcript.platform === "upload" ? (
              "Uploaded file"
            ) : (
              transcript.source_url
            )}
          </dd>
        </div>
      </dl>
      <div className="flex items-center gap-2">
        <PublishButton url={transcript.source_url} lang={transcript.lang} />
      </div>
    </header>
  );
}

function Detail({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-stone-500 dark:text-stone-400">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function PlayerFrame({ player, title, frameProps }: { player: Player; title: string; frameProps: PlayerState["frameProps"] }) {
  return (
    <div className="mx-auto aspect-video max-h-[28vh] max-w-full overflow-hidden rounded-lg border border-stone-200 bg-stone-900 lg:max-h-none lg:w-full dark:border-stone-700">
      <iframe
        {...frameProps}
        src={player.src}
        title={`${player.kind === "youtube" ? "YouTube" : "Vimeo"} player: ${title}`}
        className="size-full"
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        data-testid="transcript-player"
      />
    </div>
  );
}

/** The upload's own file from GET /v1/transcripts/{id}/media; once the upload has expired, a note instead. */
function UploadPlayer({ transcript, mediaProps }: { transcript: Transcript; mediaProps: PlayerState["mediaProps"] }) {
  const [gone, setGone] = useState(false);
  if (gone) {
    return (
      <p className="rounded-lg border border-stone-200 bg-white p-3 text-sm text-stone-600 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-300" data-testid="transcript-audio-gone">
        The uploaded file is no longer kept on this server, so it cannot be played here. The transcript stays.
      </p>
    );
  }
  const common = {
    ...mediaProps,
    // A server-rendered element may have failed before this page hydrated (its error event went unheard).
    ref: (element: HTMLMediaElement | null) => {
      mediaProps.ref(element);
      if (element?.error) setGone(true);
    },
    src: mediaHref(transcript.id),
    controls: true,
    preload: "metadata" as const,
    onError: () => setGone(true),
    "data-testid": "transcript-audio",
  };
  return isVideoFilename(transcript.title) ? (
    <video {...common} className="mx-auto max-h-[28vh] w-full rounded-lg bg-black lg:max-h-none" aria-label={`Player: ${transcript.title ?? "uploaded file"}`} />
  ) : (
    <audio {...common} className="w-full" aria-label={`Player: ${transcript.title ?? "uploaded file"}`} />
  );
}

// ---------------------------------------------------------------------------------------------
// Tabs: the readable transcript first, then each export format as the API renders it.

function FormatTabs({ transcript, player, canSeek }: { transcript: Transcript; player: PlayerState; canSeek: boolean }) {
  const baseId = useId();
  const [active, setActive] = useState<Format>("json");
  const tabRefs = useRef<Partial<Record<Format, HTMLButtonElement | null>>>({});
  const tabId = (format: Format) => `${baseId}-tab-${format}`;
  const panelId = (format: Format) => `${baseId}-panel-${format}`;

  // Every format is fetched once per transcript and kept in the query cache; json was seeded by the request.
  const query = useQuery({
    queryKey: transcriptKey(transcript.id, active),
    queryFn: () => fetchTranscript(transcript.id, active),
    initialData: active === transcript.format ? transcript : undefined,
    staleTime: Infinity,
  });

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = FORMAT_TABS.findIndex((tab) => tab.format === active);
    const next =
      event.key === "ArrowRight" ? (index + 1) % FORMAT_TABS.length
      : event.key === "ArrowLeft" ? (index - 1 + FORMAT_TABS.length) % FORMAT_TABS.length
      : event.key === "Home" ? 0
      : event.key === "End" ? FORMAT_TABS.length - 1
      : null;
    if (next === null) return;
    event.preventDefault();
    const format = FORMAT_TABS[next].format;
    setActive(format);
    tabRefs.current[format]?.focus();
  }

  return (
    <section className="flex min-w-0 flex-col gap-3" aria-label="Transcript">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="tablist" aria-label="Transcript format" onKeyDown={onKeyDown} className="flex max-w-full overflow-x-auto rounded-md border border-stone-200 bg-white p-0.5 dark:border-stone-700 dark:bg-stone-900">
          {FORMAT_TABS.map((tab) => (
            <button
              key={tab.format}
              ref={(element) => {
                tabRefs.current[tab.format] = element;
              }}
              type="button"
              role="tab"
              id={tabId(tab.format)}
              aria-selected={active === tab.format}
              aria-controls={panelId(tab.format)}
              tabIndex={active === tab.format ? 0 : -1}
              onClick={() => setActive(tab.format)}
              className="shrink-0 rounded px-2.5 py-1.5 text-sm text-stone-600 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 aria-selected:bg-stone-900 aria-selected:text-white dark:text-stone-300 dark:hover:bg-stone-800 dark:aria-selected:bg-stone-100 dark:aria-selected:text-stone-900"
              data-testid={`tab-${tab.format}`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <Downloads transcriptId={transcript.id} />
      </div>

      {FORMAT_TABS.map((tab) => (
        <div
          key={tab.format}
          role="tabpanel"
          id={panelId(tab.format)}
          aria-labelledby={tabId(tab.format)}
          hidden={active !== tab.format}
          className="min-w-0"
          data-testid={`panel-${tab.format}`}
        >
          {active === tab.format &&
            (query.isPending ? (
              <p className="p-4 text-sm text-stone-500 dark:text-stone-400">Loading…</p>
            ) : query.isError ? (
              <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-400">
                {query.error.message}
              </p>
            ) : tab.format === "json" ? (
              <ReadableTranscript transcript={query.data} player={player} canSeek={canSeek} />
            ) : (
              <RenderedFormat content={query.data.content ?? ""} />
            ))}
        </div>
      ))}
    </section>
  );
}

function RenderedFormat({ content }: { content: string }) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <CopyButton text={() => content} label="Copy" />
      </div>
      <pre
        tabIndex={0}
        className="max-h-[70vh] overflow-auto rounded-lg border border-stone-200 bg-white p-4 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200"
        data-testid="transcript-content"
      >
        {content}
      </pre>
    </div>
  );
}

/** .txt and .srt, what most people want, up front; the other formats one click away. */
function Downloads({ transcriptId }: { transcriptId: string }) {
  const link = (format: Format, extension: string, primary = false) => (
    <a
      key={format}
      href={downloadHref(transcriptId, format)}
      download
      className={
        primary
          ? "rounded-md bg-stone-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-stone-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300 dark:focus-visible:ring-offset-stone-950"
          : buttonClass
      }
      data-testid={`download-${extension}`}
    >
      Download .{extension}
    </a>
  );
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="transcript-downloads">
      {link("text", "txt", true)}
      {link("srt", "srt")}
      <details className="relative">
        <summary className={`${buttonClass} cursor-pointer list-none`} data-testid="download-more">
          Other formats
        </summary>
        <div className="absolute right-0 z-30 mt-1 flex w-44 flex-col gap-1 rounded-md border border-stone-200 bg-white p-1 shadow-lg dark:border-stone-700 dark:bg-stone-900">
          {FORMAT_TABS.filter((tab) => tab.format !== "text" && tab.format !== "srt").map((tab) => (
            <a
              key={tab.format}
              href={downloadHref(transcriptId, tab.format)}
              download
              className="rounded px-2 py-1.5 text-sm hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:hover:bg-stone-800"
            >
              Download .{tab.extension}
            </a>
          ))}
        </div>
      </details>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The readable transcript: lines with timestamps, chapters, the line being played, search.

function ReadableTranscript({ transcript, player, canSeek }: { transcript: Transcript; player: PlayerState; canSeek: boolean }) {
  const segments = useMemo(() => transcript.segments ?? [], [transcript.segments]);
  const chapters = useMemo(() => chapterStarts(segments, transcript.chapters ?? []), [segments, transcript.chapters]);
  const [query, setQuery] = useState("");
  const [current, setCurrent] = useState(0);
  const [follow, setFollow] = useState(true);
  const [timestamps, setTimestamps] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const matches = useMemo(() => findMatches(segments, query), [segments, query]);
  const matched = useMemo(() => new Set(matches.map((match) => match.segment)), [matches]);
  const active = activeSegmentIndex(segments, player.time);
  const sourceLink = sourceHref(transcript.source_url);
  const searchId = useId();

  // The line being played stays in view while following.
  useEffect(() => {
    if (!follow || active < 0) return;
    const line = list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (line) keepInView(line);
  }, [active, follow]);

  // Reading elsewhere pauses following: a wheel or touch scroll once playback has started.
  const started = player.time !== null;
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

  function goTo(index: number) {
    if (matches.length === 0) return;
    const next = (index + matches.length) % matches.length;
    setCurrent(next);
    setFollow(false);
    const mark = list.current?.querySelector<HTMLElement>(`[data-match="${next}"]`);
    if (mark) keepInView(mark);
  }

  if (segments.length === 0) return <p className="p-4 text-sm text-stone-500 dark:text-stone-400">This transcript has no text.</p>;
  const currentMatch = matches.length === 0 ? -1 : Math.min(current, matches.length - 1);
  const countLabel = matchCountLabel(currentMatch, matches.length, query);

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <form
          role="search"
          className="flex min-w-0 flex-1 basis-64 items-center gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            goTo(currentMatch + 1);
          }}
        >
          <label htmlFor={searchId} className="sr-only">
            Search this transcript
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder="Search this transcript"
            autoComplete="off"
            onChange={(event) => {
              setQuery(event.target.value);
              setCurrent(0);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter" && event.shiftKey) {
                event.preventDefault();
                goTo(currentMatch - 1);
              }
            }}
            className="min-w-0 flex-1 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm placeholder:text-stone-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-stone-600 dark:bg-stone-900 dark:placeholder:text-stone-400"
            data-testid="transcript-search"
          />
          <span className="min-w-16 text-center text-xs text-stone-600 tabular-nums dark:text-stone-300" aria-live="polite" data-testid="search-count">
            {countLabel}
          </span>
          <button type="button" className={buttonClass} onClick={() => goTo(currentMatch - 1)} disabled={matches.length === 0} aria-label="Previous match" data-testid="search-previous">
            ↑
          </button>
          <button type="submit" className={buttonClass} disabled={matches.length === 0} aria-label="Next match" data-testid="search-next">
            ↓
          </button>
        </form>
        {canSeek && (
          <button type="button" className={buttonClass} aria-pressed={follow} onClick={() => setFollow((on) => !on)} data-testid="follow-toggle">
            {follow ? "Auto-scroll on" : "Auto-scroll off"}
          </button>
        )}
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-300">
            <input type="checkbox" checked={timestamps} onChange={(event) => setTimestamps(event.target.checked)} className="size-4 accent-stone-900 focus-visible:ring-2 focus-visible:ring-sky-500 dark:accent-stone-200" data-testid="copy-timestamps" />
            Timestamps
          </label>
          <CopyButton text={() => (timestamps ? renderTimestampedText(segments) : renderText(segments))} label="Copy text" />
        </div>
      </div>

      <ol
        ref={list}
        className="max-h-none divide-y divide-stone-100 overflow-visible rounded-lg border border-stone-200 bg-white text-sm lg:max-h-[calc(100vh-12rem)] lg:overflow-y-auto dark:divide-stone-800 dark:border-stone-700 dark:bg-stone-900"
        data-testid="segments"
      >
        {segments.map((segment, index) => (
          <SegmentLine
            key={index}
            index={index}
            segment={segment}
            chapters={chapters.get(index)}
            active={index === active}
            matches={matches}
            currentMatch={matched.has(index) ? currentMatch : -1}
            hasMatch={matched.has(index)}
            onSeek={canSeek ? player.seek : null}
            sourceLink={sourceLink}
          />
        ))}
      </ol>
    </div>
  );
}

/** Scrolls the nearest scrolling box (the list on wide screens, else the page below the sticky player) to put `element` in its middle. */
function keepInView(element: HTMLElement) {
  const box = element.closest("ol");
  const rect = element.getBoundingClientRect();
  if (box && box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY !== "visible") {
    const frame = box.getBoundingClientRect();
    box.scrollTo({ top: box.scrollTop + rect.top - frame.top - (frame.height - rect.height) / 2, behavior: "smooth" });
    return;
  }
  const pane = document.querySelector<HTMLElement>("[data-testid=player-pane]");
  const covered = pane && getComputedStyle(pane).position === "sticky" ? Math.max(0, pane.getBoundingClientRect().bottom) : 0;
  const visible = window.innerHeight - covered;
  if (rect.top >= covered + visible * 0.2 && rect.bottom <= window.innerHeight - visible * 0.2) return;
  window.scrollTo({ top: window.scrollY + rect.top - covered - (visible - rect.height) / 2, behavior: "smooth" });
}

const SegmentLine = memo(function SegmentLine({
  index,
  segment,
  chapters,
  active,
  matches,
  currentMatch,
  hasMatch,
  onSeek,
  sourceLink,
}: {
  index: number;
  segment: Segment;
  chapters: string[] | undefined;
  active: boolean;
  matches: SearchMatch[];
  currentMatch: number;
  hasMatch: boolean;
  onSeek: ((seconds: number) => boolean) | null;
  sourceLink: string | null;
}) {
  const stampClass =
    "shrink-0 rounded px-1.5 py-0.5 font-mono text-xs text-stone-600 tabular-nums hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-stone-400 dark:hover:bg-stone-800 dark:hover:text-stone-100";
  const clock = formatClock(segment.start);
  const stamp: ReactNode = onSeek ? (
    <button type="button" onClick={() => onSeek(segment.start)} className={stampClass} aria-label={`Play from ${clock}`}>
      {clock}
    </button>
  ) : sourceLink ? (
    <a href={sourceLink} target="_blank" rel="noopener noreferrer" className={stampClass} aria-label={`${clock}, open the source`}>
      {clock}
    </a>
  ) : (
    <span className="shrink-0 px-1.5 py-0.5 font-mono text-xs text-stone-600 tabular-nums dark:text-stone-400">{clock}</span>
  );
  return (
    <>
      {chapters?.map((title) => (
        <li key={title} className="bg-stone-50 px-4 pt-3 pb-1 dark:bg-stone-950/40" data-testid="chapter">
          <h3 className="text-sm font-semibold text-stone-900 dark:text-stone-100">
            {onSeek ? (
              <button type="button" onClick={() => onSeek(segment.start)} className="rounded text-left hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
                {title} <span className="font-mono text-xs font-normal text-stone-600 dark:text-stone-400">{clock}</span>
              </button>
            ) : (
              <>
                {title} <span className="font-mono text-xs font-normal text-stone-600 dark:text-stone-400">{clock}</span>
              </>
            )}
          </h3>
        </li>
      ))}
      <li
        className={`flex items-baseline gap-3 px-4 py-2 ${active ? "bg-sky-50 shadow-[inset_3px_0_0_0] shadow-sky-600 dark:bg-sky-950/60 dark:shadow-sky-400" : ""}`}
        aria-current={active ? "true" : undefined}
        data-index={index}
        data-testid="segment"
      >
        {stamp}
        <span className="min-w-0 break-words text-stone-800 dark:text-stone-200" data-testid="segment-text">
          {hasMatch
            ? splitByMatches(segment.text, index, matches).map((part, at) =>
                part.match === null ? (
                  part.text
                ) : (
                  <mark
                    key={at}
                    data-match={part.match}
                    data-current={part.match === currentMatch || undefined}
                    className={`rounded px-0.5 text-stone-900 ${part.match === currentMatch ? "bg-amber-400 ring-2 ring-amber-600" : "bg-amber-200"}`}
                  >
                    {part.text}
                  </mark>
                ),
              )
            : segment.text}
        </span>
      </li>
    </>
  );
});

function CopyButton({ text, label }: { text: () => string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text());
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2000);
      }}
      className={buttonClass}
      data-testid="transcript-copy"
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}</span>
    </button>
  );
}
