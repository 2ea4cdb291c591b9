"use client";

import { useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  captionKindLabel,
  downloadHref,
  fetchTranscript,
  FORMAT_TABS,
  formatClock,
  platformLabel,
  playerFor,
  seekMessages,
  sourceHref,
  transcriptKey,
  type Format,
  type Player,
  type Transcript,
} from "@/lib/client/transcripts";
import { PublishButton } from "@/components/dashboard/publish-button";

/** One transcript: its details, the embedded player where there is one, and every format in tabs. */
export function TranscriptViewer({ transcript }: { transcript: Transcript }) {
  const player = playerFor(transcript);
  const sourceLink = sourceHref(transcript.source_url);
  const frame = useRef<HTMLIFrameElement>(null);
  const seek = (seconds: number) => {
    const target = frame.current?.contentWindow;
    if (!player || !target) return;
    for (const message of seekMessages(player.kind, seconds)) target.postMessage(message, player.origin);
  };

  return (
    <article className="flex flex-col gap-6" aria-labelledby="transcript-title" data-testid="transcript-viewer">
      <header className="flex flex-col gap-3">
        <h2 id="transcript-title" className="text-xl font-semibold" data-testid="transcript-title">
          {transcript.title || transcript.video_id}
        </h2>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <Detail label="Platform" value={platformLabel(transcript.platform)} testId="transcript-platform" />
          <Detail label="Language" value={transcript.lang} testId="transcript-lang" />
          <Detail label="Captions" value={captionKindLabel(transcript)} testId="transcript-caption-kind" />
          <Detail label="Duration" value={formatClock(transcript.duration_seconds)} testId="transcript-duration" />
          <div className="flex gap-1.5">
            <dt className="text-stone-500">Source</dt>
            <dd className="max-w-xs truncate" data-testid="transcript-source">
              {sourceLink ? (
                <a href={sourceLink} target="_blank" rel="noopener noreferrer" className="underline decoration-stone-300 hover:decoration-stone-900">
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

      {player && <PlayerFrame player={player} title={transcript.title || transcript.video_id} frameRef={frame} />}

      <FormatTabs transcript={transcript} player={player} onSeek={seek} />
    </article>
  );
}

function Detail({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-stone-500">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function PlayerFrame({ player, title, frameRef }: { player: Player; title: string; frameRef: RefObject<HTMLIFrameElement | null> }) {
  return (
    <div className="aspect-video w-full max-w-3xl overflow-hidden rounded-lg border border-stone-200 bg-stone-900">
      <iframe
        ref={frameRef}
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

function FormatTabs({ transcript, player, onSeek }: { transcript: Transcript; player: Player | null; onSeek: (seconds: number) => void }) {
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
  const copyText = query.data ? contentOf(query.data) : null;
  const extension = FORMAT_TABS.find((tab) => tab.format === active)!.extension;

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
    <section className="flex flex-col gap-3" aria-label="Transcript">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="tablist" aria-label="Transcript format" onKeyDown={onKeyDown} className="inline-flex rounded-md border border-stone-200 bg-white p-0.5">
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
              className="rounded px-3 py-1.5 text-sm text-stone-600 hover:bg-stone-100 aria-selected:bg-stone-900 aria-selected:text-white"
              data-testid={`tab-${tab.format}`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <div className="flex gap-2">
          <CopyButton text={copyText} />
          <a
            href={downloadHref(transcript.id, active)}
            download
            className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100"
            data-testid="transcript-download"
          >
            Download .{extension}
          </a>
        </div>
      </div>

      {FORMAT_TABS.map((tab) => (
        <div
          key={tab.format}
          role="tabpanel"
          id={panelId(tab.format)}
          aria-labelledby={tabId(tab.format)}
          hidden={active !== tab.format}
          tabIndex={0}
          className="max-h-[32rem] overflow-auto rounded-lg border border-stone-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-stone-400"
          data-testid={`panel-${tab.format}`}
        >
          {active === tab.format &&
            (query.isPending ? (
              <p className="p-4 text-sm text-stone-500">Loading…</p>
            ) : query.isError ? (
              <p role="alert" className="p-4 text-sm text-red-700">
                {query.error.message}
              </p>
            ) : tab.format === "json" ? (
              <SegmentList transcript={query.data} player={player} onSeek={onSeek} />
            ) : (
              <pre className="p-4 font-mono text-xs leading-relaxed whitespace-pre-wrap text-stone-800" data-testid="transcript-content">
                {query.data.content}
              </pre>
            ))}
        </div>
      ))}
    </section>
  );
}

/** What Copy puts on the clipboard: the rendered file, or for the segments tab the segments as JSON. */
function contentOf(transcript: Transcript): string {
  if (transcript.format === "json") return JSON.stringify(transcript.segments ?? [], null, 2);
  return transcript.content ?? "";
}

function SegmentList({ transcript, player, onSeek }: { transcript: Transcript; player: Player | null; onSeek: (seconds: number) => void }) {
  const segments = transcript.segments ?? [];
  const sourceLink = sourceHref(transcript.source_url);
  if (segments.length === 0) return <p className="p-4 text-sm text-stone-500">This transcript has no text.</p>;
  const stampClass = "shrink-0 rounded px-1.5 py-0.5 font-mono text-xs tabular-nums text-stone-500 hover:bg-stone-100 hover:text-stone-900";
  return (
    <ol className="divide-y divide-stone-100 text-sm" data-testid="segments">
      {segments.map((segment, index) => (
        <li key={index} className="flex items-baseline gap-3 px-4 py-2" data-testid="segment">
          {player ? (
            <button type="button" onClick={() => onSeek(segment.start)} className={stampClass} aria-label={`Play from ${formatClock(segment.start)}`}>
              {formatClock(segment.start)}
            </button>
          ) : sourceLink ? (
            <a href={sourceLink} target="_blank" rel="noopener noreferrer" className={stampClass} aria-label={`${formatClock(segment.start)}, open the source`}>
              {formatClock(segment.start)}
            </a>
          ) : (
            <span className="shrink-0 px-1.5 py-0.5 font-mono text-xs text-stone-500 tabular-nums">{formatClock(segment.start)}</span>
          )}
          <span className="text-stone-800" data-testid="segment-text">
            {segment.text}
          </span>
        </li>
      ))}
    </ol>
  );
}

function CopyButton({ text }: { text: string | null }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      disabled={text === null}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text ?? "");
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2000);
      }}
      className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 disabled:opacity-50"
      data-testid="transcript-copy"
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}</span>
    </button>
  );
}
