// Browser side of imports: start one (POST /v1/import), list the caller's batches (GET /v1/import) and a
// batch's items (GET /v1/import/{batch_id}/items), and try a failed item again (POST …/items/retry).

import type { ImportBatchOut, ImportItemOut, ImportItemsResponse } from "@/lib/imports/schemas";
import type { ResolveResponse } from "@/lib/podcasts/schemas";
import { apiFetch } from "@/lib/browser/api";

export type { ImportBatchOut, ImportItemOut, ImportItemsResponse };

export const IMPORTS_KEY = ["imports"] as const;

export function fetchImports(): Promise<ImportBatchOut[]> {
  return apiFetch<ImportBatchOut[]>("/v1/import");
}

export function startImport(url: string): Promise<{ batch_id: string }> {
  return apiFetch<{ batch_id: string }>("/v1/import", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }),
  });
}

/** What an import would take in, to show its cost before it starts: a feed's episodes (POST /v1/podcast/resolve). */
export function previewFeed(url: string): Promise<ResolveResponse> {
  return apiFetch<ResolveResponse>("/v1/podcast/resolve", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }), // every episode of a real feed (up to 5,000), so the cost is the whole feed's
  });
}

/** Seconds in an episode's "HH:MM:SS" (or "MM:SS") duration; null when the feed gave none. */
export function durationSeconds(duration: string | null): number | null {
  if (!duration) return null;
  const parts = duration.split(":").map(Number);
  if (parts.some((part) => !Number.isFinite(part))) return null;
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** The listed episodes' audio in all, and how many of them the feed gave no length for. */
export function feedCost(episodes: readonly { duration: string | null }[]): { seconds: number; unknown: number } {
  let seconds = 0;
  let unknown = 0;
  for (const episode of episodes) {
    const length = durationSeconds(episode.duration);
    if (length === null) unknown += 1;
    else seconds += length;
  }
  return { seconds, unknown };
}

/** Percent of the batch's items that are finished (done, failed or skipped); 0 until it is listed. */
export function batchProgress(batch: Pick<ImportBatchOut, "total" | "done" | "failed" | "skipped">): number {
  if (batch.total <= 0) return 0;
  return Math.min(100, ((batch.done + batch.failed + batch.skipped) / batch.total) * 100);
}

export function isBatchActive(batch: Pick<ImportBatchOut, "status">): boolean {
  return batch.status === "queued" || batch.status === "running";
}

export const IMPORT_STATUS_LABELS: Readonly<Record<ImportBatchOut["status"], string>> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  partial: "Done, some failed",
  error: "Failed",
};

export const importItemsKey = (batchId: string) => [...IMPORTS_KEY, batchId, "items"] as const;

export function fetchImportItems(batchId: string, cursor: string | null): Promise<ImportItemsResponse> {
  const search = cursor ? `?${new URLSearchParams({ cursor }).toString()}` : "";
  return apiFetch<ImportItemsResponse>(`/v1/import/${encodeURIComponent(batchId)}/items${search}`);
}

/** Queues a failed item again; the batch runs again if it had ended. */
export function retryImportItem(batchId: string, guid: string): Promise<ImportItemOut> {
  return apiFetch<ImportItemOut>(`/v1/import/${encodeURIComponent(batchId)}/items/retry`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ guid }),
  });
}

export const IMPORT_ITEM_STATUS_LABELS: Readonly<Record<ImportItemOut["status"], string>> = {
  queued: "Queued",
  running: "Transcribing",
  done: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

/** The dashboard page showing a transcript from the caller's history. */
export function storedTranscriptHref(transcriptId: string): string {
  return `/dashboard?${new URLSearchParams({ transcript: transcriptId }).toString()}`;
}
