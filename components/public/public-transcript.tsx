"use client";

import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { formatClock, seekMessages, type Player } from "@/lib/client/transcripts";

interface Segment {
  start: number;
  end: number;
  text: string;
}

interface Props {
  segments: Segment[];
  player: (Player & { title: string }) | null;
  /** The platform's link to a moment, to which "<seconds>s" is appended; null: the timestamp is an anchor to its line. */
  momentPrefix: string | null;
  /** ?q= from the URL: the search works without JavaScript through the form's GET. */
  initialQuery: string;
}

// The transcript of a public page. Server-rendered in full (readable with JavaScript off: timestamps are
// plain links, search is a GET form). With JavaScript, a timestamp seeks the embedded player through its
// postMessage API (YouTube's widget protocol, Vimeo's player.js protocol: no third-party script), the
// line being played is highlighted, and the search filters as you type.

/** The playback position a player reports in a message, if it is one. */
function reportedTime(kind: Player["kind"], data: unknown): number | null {
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
  const value = kind === "youtube" ? (m.event === "infoDelivery" ? m.info?.currentTime : undefined) : m.event === "timeupdate" || m.event === "playProgress" ? m.data?.seconds : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function listenMessages(kind: Player["kind"]): string[] {
  return kind === "youtube"
    ? [JSON.stringify({ event: "listening", id: "verbatim", channel: "widget" })]
    : [JSON.stringify({ method: "addEventListener", value: "timeupdate" }), JSON.stringify({ method: "addEventListener", value: "playProgress" })];
}

function Highlighted({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  const parts: React.ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    parts.push(text.slice(from, at), <mark key={at} className="rounded bg-amber-200 px-0.5">{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

export function PublicTranscript({ segments, player, momentPrefix, initialQuery }: Props) {
  const [query, setQuery] = useState(initialQuery);
  const [time, setTime] = useState<number | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const needle = query.trim().toLowerCase();

  const matches = useMemo(() => segments.map((segment) => !needle || segment.text.toLowerCase().includes(needle)), [segments, needle]);
  const matchCount = matches.filter(Boolean).length;
  const current = useMemo(() => {
    if (time === null) return -1;
    let found = -1;
    for (let i = 0; i < segments.length && segments[i].start <= time + 0.25; i += 1) found = i;
    return found;
  }, [segments, time]);

  useEffect(() => {
    if (!player) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== player.origin || event.source !== frame.current?.contentWindow) return;
      const seconds = reportedTime(player.kind, event.data);
      if (seconds !== null) setTime(seconds);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [player]);

  const post = (messages: string[]) => {
    const target = frame.current?.contentWindow;
    if (!player || !target) return false;
    for (const message of messages) target.postMessage(message, player.origin);
    return true;
  };

  const onTimestamp = (event: MouseEvent<HTMLAnchorElement>, seconds: number) => {
    if (!player || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (post(seekMessages(player.kind, seconds))) {
      event.preventDefault();
      setTime(seconds);
    }
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
      {player && (
        <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
          <iframe
            ref={frame}
            src={player.src}
            title={`Player: ${player.title}`}
            className="h-full w-full"
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            onLoad={() => post(listenMessages(player.kind))}
            data-testid="public-player"
          />
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
          className="min-w-0 flex-1 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm"
          data-testid="transcript-search"
        />
        <button type="submit" className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100">
          Search
        </button>
        {needle && (
          <p className="w-full text-sm text-stone-600" aria-live="polite" data-testid="search-count">
            {matchCount} {matchCount === 1 ? "line matches" : "lines match"} “{query.trim()}”
          </p>
        )}
      </form>

      <ol className="flex flex-col gap-1" data-testid="public-segments">
        {segments.map((segment, i) =>
          matches[i] ? (
            <li
              key={i}
              id={`t${Math.floor(segment.start)}-${i}`}
              className={`flex gap-3 rounded px-2 py-1 leading-relaxed ${i === current ? "bg-sky-100" : ""}`}
              aria-current={i === current ? "true" : undefined}
              data-testid="public-segment"
            >
              <a
                href={momentPrefix ? `${momentPrefix}${Math.floor(segment.start)}s` : `#t${Math.floor(segment.start)}-${i}`}
                onClick={(event) => onTimestamp(event, segment.start)}
                className="shrink-0 font-mono text-sm text-sky-700 tabular-nums hover:underline"
                data-start={segment.start}
                data-testid="timestamp"
                rel="nofollow"
              >
                {formatClock(segment.start)}
              </a>
              <span>
                <Highlighted text={segment.text} query={query.trim()} />
              </span>
            </li>
          ) : null,
        )}
      </ol>
    </div>
  );
}
