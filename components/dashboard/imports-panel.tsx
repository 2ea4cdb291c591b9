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
import { controlClass } from "@/components/ui/field";
import { ImportPreview } from "@/components/dashboard/import-preview";

/** While a batch is queued or running, the list is asked for again this often. */
const ACTIVE_POLL_MS = 2000;

/** Start an import (feed, Apple Podcasts show, YouTube playlist or channel) and follow the caller's batches. */
export function ImportsPanel() {
  const inputId = useId();
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
        <label htmlFor={inputId} className="flex flex-1 flex-col gap-1 text-sm">
          Podcast feed, Apple Podcasts show, or YouTube playlist or channel
          <input
            id={inputId}
            type="url"
            required
            value={url}
            onChange={(event) => {
              setUrl(event.target.value);
              setPreview(null);
            }}
            placeholder="https://feeds.example.com/show.xml"
            className={controlClass}
          />
        </label>
        <button type="submit" disabled={start.isPending || check.isPending} className={buttonClass("primary", "lg")}>
          {check.isPending ? "Checking…" : "Import"}
        </button>
      </form>
      {preview && (
        <ImportPreview
          feed={preview.feed}
          starting={start.isPending}
          onStart={() => start.mutate(preview.url)}
          onCancel={() => setPreview(null)}
        />
      )}
      {start.error ? (
        <p role="alert" className="text-sm text-red-700">
          {start.error.message}
        </p>
      ) : null}

      {batches.isPending ? <p className="text-sm text-stone-500">Loading…</p> : null}
      {batches.error ? (
        <p role="alert" className="text-sm text-red-700">
          {batches.error.message}
        </p>
      ) : null}
      {batches.data && batches.data.length === 0 ? <p className="text-sm text-stone-500">No imports yet.</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Imports">
        {batches.data?.map((batch) => (
          <Batch key={batch.id} batch={batch} />
        ))}
      </ul>
    </div>
  );
}

function Batch({ batch }: { batch: ImportBatchOut }) {
  const [open, setOpen] = useState(false);
  const itemsId = useId();
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4" data-testid="import-batch">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">{batch.title ?? batch.source_url}</span>
        <span className="text-sm text-stone-500">{IMPORT_STATUS_LABELS[batch.status]}</span>
      </div>
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
    </li>
  );
}
