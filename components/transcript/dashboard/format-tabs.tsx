"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchTranscript, FORMAT_TABS, transcriptKey, type Format } from "@/lib/browser/transcripts";
import { focusRing } from "@/components/ui/focus";
import { CopyButton } from "@/components/transcript/dashboard/copy-button";
import {
  ReadableTranscript,
  type ReadableTranscriptProps,
} from "@/components/transcript/dashboard/readable-transcript";

/** Tabs: the readable transcript first (given these props), then each export format as the API renders it (the downloads are in the viewer's header). */
export function FormatTabs(props: ReadableTranscriptProps) {
  const { transcript } = props;
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
      event.key === "ArrowRight"
        ? (index + 1) % FORMAT_TABS.length
        : event.key === "ArrowLeft"
          ? (index - 1 + FORMAT_TABS.length) % FORMAT_TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? FORMAT_TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const format = FORMAT_TABS[next].format;
    setActive(format);
    tabRefs.current[format]?.focus();
  }

  return (
    <section className="flex min-w-0 flex-col gap-3" aria-label="Transcript">
      <div className="flex flex-wrap items-center gap-2">
        <div
          role="tablist"
          aria-label="Transcript format"
          onKeyDown={onKeyDown}
          className="flex max-w-full overflow-x-auto rounded-md border border-stone-200 bg-white p-0.5"
        >
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
              className={`shrink-0 rounded px-2.5 py-1.5 text-sm text-stone-600 hover:bg-stone-100 aria-selected:bg-stone-900 aria-selected:text-white max-sm:min-h-11 ${focusRing}`}
              data-testid={`tab-${tab.format}`}
            >
              {tab.label}
            </button>
          ))}
        </div>
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
              <p className="p-4 text-sm text-stone-600">Loading…</p>
            ) : query.isError ? (
              <p role="alert" className="p-4 text-sm text-red-700">
                {query.error.message}
              </p>
            ) : tab.format === "json" ? (
              <ReadableTranscript {...props} transcript={query.data} />
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
        className={`max-h-[70vh] overflow-auto rounded-lg border border-stone-200 bg-white p-4 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-stone-800 ${focusRing}`}
        data-testid="transcript-content"
      >
        {content}
      </pre>
    </div>
  );
}
