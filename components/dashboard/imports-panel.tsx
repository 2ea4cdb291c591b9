"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import { batchProgress, fetchImports, IMPORT_STATUS_LABELS, IMPORTS_KEY, isBatchActive, startImport } from "@/lib/client/imports";

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
  const start = useMutation({
    mutationFn: startImport,
    onSuccess: () => {
      setUrl("");
      void queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
    },
  });

  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim()) start.mutate(url.trim());
        }}
      >
        <label htmlFor={inputId} className="flex flex-1 flex-col gap-1 text-sm">
          Podcast feed, Apple Podcasts show, or YouTube playlist or channel
          <input
            id={inputId}
            type="url"
            required
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://feeds.example.com/show.xml"
            className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-stone-400"
          />
        </label>
        <button type="submit" disabled={start.isPending} className="rounded-md bg-stone-900 px-4 py-2 text-sm text-white disabled:opacity-50">
          {start.isPending ? "Starting…" : "Import"}
        </button>
      </form>
      {start.error ? (
        <p role="alert" className="text-sm text-red-700">
          {start.error.message}
        </p>
      ) : null}

      {batches.isPending ? <p className="text-sm text-stone-500">Loading…</p> : null}
      {batches.error ? <p role="alert" className="text-sm text-red-700">{batches.error.message}</p> : null}
      {batches.data && batches.data.length === 0 ? <p className="text-sm text-stone-500">No imports yet.</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Imports">
        {batches.data?.map((batch) => (
          <li key={batch.id} className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4" data-testid="import-batch">
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
          </li>
        ))}
      </ul>
    </div>
  );
}
