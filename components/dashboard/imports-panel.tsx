"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ImportItems } from "@/components/dashboard/import-items";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import {
  batchProgress,
  fetchImports,
  IMPORT_STATUS_LABELS,
  IMPORTS_KEY,
  isBatchActive,
  previewFeed,
  startImport,
  type ImportBatchOut,
} from "@/lib/browser/imports";
import type { ResolveResponse } from "@/lib/podcasts/schemas";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import { PanelItem, PanelList, UrlField } from "@/components/dashboard/panel-list";
import { ImportPreview } from "@/components/dashboard/import-preview";
import { useHydrated } from "@/components/ui/use-hydrated";

/** While a batch is queued or running, the list is asked for again this often. */
const ACTIVE_POLL_MS = 2000;

/**
 * Start an import (feed, Apple Podcasts show, YouTube playlist or channel) and follow the caller's batches.
 * `speechRecognition`: whether this server recognises speech (the preview's cost depends on it).
 */
export function ImportsPanel({ speechRecognition = true }: { speechRecognition?: boolean }) {
  const inputId = useId();
  const hydrated = useHydrated();
  const [url, setUrl] = useState("");
  const queryClient = useQueryClient();
  const batches = useQuery({
    queryKey: IMPORTS_KEY,
    queryFn: fetchImports,
    refetchInterval: (query) => (query.state.data?.some(isBatchActive) ? ACTIVE_POLL_MS : false),
  });
  // The cost is shown before the import starts: the feed's episodes, or the rule for playlists.
  const [preview, setPreview] = useState<{ url: string; feed: ResolveResponse | null } | null>(null);
  const check = useMutation({
    mutationFn: async (address: string) => ({
      url: address,
      feed: await previewFeed(address)
        .then((answer) => (answer.kind === "feed" ? answer : null))
        .catch(() => null),
    }),
    onSuccess: setPreview,
  });
  const start = useMutation({
    mutationFn: startImport,
    onSuccess: () => {
      setUrl("");
      setPreview(null);
      void queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
    },
  });

  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim()) check.mutate(url.trim());
        }}
      >
        <UrlField
          id={inputId}
          value={url}
          onChange={(value) => {
            setUrl(value);
            setPreview(null);
          }}
          placeholder="https://feeds.example.com/show.xml"
          grow
        >
          Podcast feed, Apple Podcasts show, or YouTube playlist or channel
        </UrlField>
        <button
          type="submit"
          disabled={!hydrated || start.isPending || check.isPending}
          className={buttonClass("primary", "lg")}
        >
          {check.isPending ? "Checking…" : "Import"}
        </button>
      </form>
      {preview && (
        <ImportPreview
          feed={preview.feed}
          speechRecognition={speechRecognition}
          starting={start.isPending}
          onStart={() => start.mutate(preview.url)}
          onCancel={() => setPreview(null)}
        />
      )}
      <ErrorText error={start.error} />

      <PanelList query={batches} label="Imports" empty="No imports yet." loading>
        {(batch) => <Batch key={batch.id} batch={batch} />}
      </PanelList>
    </div>
  );
}

function Batch({ batch }: { batch: ImportBatchOut }) {
  const [open, setOpen] = useState(false);
  const itemsId = useId();
  return (
    <PanelItem
      testId="import-batch"
      head={
        <>
          <span className="font-medium">{batch.title ?? batch.source_url}</span>
          <span className="text-sm text-stone-500">{IMPORT_STATUS_LABELS[batch.status]}</span>
        </>
      }
    >
      <ProgressBar value={batchProgress(batch)} label={`Import of ${batch.title ?? batch.source_url}`} />
      <p className="text-sm text-stone-600">
        {batch.total === 0 && isBatchActive(batch)
          ? "Listing…"
          : `${batch.done} done · ${batch.skipped} already in your history · ${batch.failed} failed · ${batch.total} in all`}
      </p>
      {batch.note ? <p className="text-sm text-stone-500">{batch.note}</p> : null}
      {batch.total > 0 && (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={itemsId}
          onClick={() => setOpen((value) => !value)}
          className="self-start text-sm text-stone-600 underline decoration-stone-300 hover:text-stone-900"
          data-testid="import-items-toggle"
        >
          {open ? "Hide items" : "Show items"}
        </button>
      )}
      {open && <ImportItems batch={batch} id={itemsId} />}
    </PanelItem>
  );
}
