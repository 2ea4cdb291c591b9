"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  fetchImportItems,
  IMPORT_ITEM_STATUS_LABELS,
  IMPORTS_KEY,
  importItemsKey,
  isBatchActive,
  retryImportItem,
  storedTranscriptHref,
  type ImportBatchOut,
  type ImportItemOut,
} from "@/lib/browser/imports";
import { watchJobHref } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";

/** While the batch is queued or running, its items are asked for again this often. */
const ACTIVE_POLL_MS = 2000;

const STATUS_CLASSES: Record<ImportItemOut["status"], string> = {
  queued: "bg-stone-100 text-stone-700 ring-stone-200",
  running: "bg-amber-50 text-amber-800 ring-amber-200",
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  skipped: "bg-sky-50 text-sky-800 ring-sky-200",
};

/**
 * A batch's items in the source's order, page by page: each with its state, the reason a failed or skipped one
 * gives, a link to the transcript once it is in the history, and to the job while it runs.
 */
export function ImportItems({ batch, id }: { batch: ImportBatchOut; id: string }) {
  const queryClient = useQueryClient();
  const active = isBatchActive(batch);
  const items = useInfiniteQuery({
    queryKey: importItemsKey(batch.id),
    queryFn: ({ pageParam }) => fetchImportItems(batch.id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: active ? ACTIVE_POLL_MS : false,
  });

  // The batch's counts moved (or it finished): the items did too (not on the first render: that fetch is under way).
  const signature = `${batch.status}:${batch.done}:${batch.failed}:${batch.skipped}`;
  const seen = useRef(signature);
  useEffect(() => {
    if (seen.current === signature) return;
    seen.current = signature;
    void queryClient.invalidateQueries({ queryKey: importItemsKey(batch.id) });
  }, [signature, batch.id, queryClient]);

  if (items.isPending)
    return (
      <p id={id} className="text-sm text-stone-500">
        Loading the items…
      </p>
    );
  if (items.isError) {
    return (
      <p id={id} role="alert" className="text-sm text-red-700">
        {items.error.message}
      </p>
    );
  }
  const rows = items.data.pages.flatMap((page) => page.items);
  return (
    <div id={id} className="flex flex-col gap-2">
      {rows.length === 0 ? (
        <p className="text-sm text-stone-500">{active ? "Listing…" : "No items."}</p>
      ) : (
        <ol
          className="divide-y divide-stone-100 rounded-md border border-stone-200"
          aria-label={`Items of ${batch.title ?? batch.source_url}`}
        >
          {rows.map((item) => (
            <Item key={item.guid} item={item} batchId={batch.id} />
          ))}
        </ol>
      )}
      {items.hasNextPage && (
        <button
          type="button"
          onClick={() => void items.fetchNextPage()}
          disabled={items.isFetchingNextPage}
          className={buttonClass("secondary", "md", "self-start")}
        >
          {items.isFetchingNextPage ? "Loading…" : "Show more"}
        </button>
      )}
    </div>
  );
}

function Item({ item, batchId }: { item: ImportItemOut; batchId: string }) {
  const queryClient = useQueryClient();
  // A failed item can be tried again: it is queued, and the batch (with its counts) runs again.
  const retry = useMutation({
    mutationFn: () => retryImportItem(batchId, item.guid),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: IMPORTS_KEY }),
  });
  return (
    <li className="flex flex-col gap-1 px-3 py-2 text-sm" data-testid="import-item" data-status={item.status}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="min-w-0 break-words" data-testid="import-item-title">
          {item.title}
        </span>
        <span className="flex items-center gap-2 whitespace-nowrap">
          {item.transcript_id ? (
            <Link
              href={storedTranscriptHref(item.transcript_id)}
              className="text-xs underline decoration-stone-300 hover:decoration-stone-900"
              data-testid="import-item-transcript"
            >
              Open transcript
            </Link>
          ) : item.status === "running" && item.job_id ? (
            <Link
              href={watchJobHref(item.job_id)}
              className="text-xs underline decoration-stone-300 hover:decoration-stone-900"
            >
              Watch
            </Link>
          ) : item.status === "failed" ? (
            <button
              type="button"
              onClick={() => retry.mutate()}
              disabled={retry.isPending}
              className="text-xs underline decoration-stone-300 hover:decoration-stone-900 disabled:opacity-50"
              data-testid="import-item-retry"
            >
              {retry.isPending ? "Queuing…" : "Try again"}
            </button>
          ) : null}
          <span
            className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_CLASSES[item.status]}`}
            data-testid="import-item-status"
          >
            {IMPORT_ITEM_STATUS_LABELS[item.status]}
          </span>
        </span>
      </div>
      {retry.isError ? (
        <p role="alert" className="text-xs text-red-800">
          {retry.error.message}
        </p>
      ) : null}
      {item.note && (item.status === "failed" || item.status === "skipped" || item.status === "done") ? (
        <p
          className={`text-xs ${item.status === "failed" ? "text-red-800" : "text-stone-500"}`}
          data-testid="import-item-note"
        >
          {item.note}
        </p>
      ) : null}
    </li>
  );
}
