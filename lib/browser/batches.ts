// Browser side of batches of links (the dashboard's Batches page): start one from a pasted list or a TXT/CSV
// file's text (POST /v1/batches), follow it (GET /v1/batches/{id}), retry its failed items, download every result.

import type { BatchOut } from "@/lib/batches/schemas";
import { apiFetch } from "@/lib/browser/api";

export type { BatchOut };

export const batchKey = (batchId: string) => ["batches", batchId] as const;

/** While a batch is queued or running, it is asked for again this often. */
export const BATCH_POLL_MS = 2000;

export function startBatch(text: string): Promise<BatchOut> {
  return apiFetch<BatchOut>("/v1/batches", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
}

export function fetchBatch(batchId: string): Promise<BatchOut> {
  return apiFetch<BatchOut>(`/v1/batches/${encodeURIComponent(batchId)}`);
}

export function retryBatch(batchId: string): Promise<BatchOut> {
  return apiFetch<BatchOut>(`/v1/batches/${encodeURIComponent(batchId)}/retry`, { method: "POST" });
}

/** Where the zip of every result is (the session cookie goes with a plain link). */
export function batchDownloadHref(batchId: string, formats: readonly string[]): string {
  return `/v1/batches/${encodeURIComponent(batchId)}/download?${new URLSearchParams({ formats: formats.join(",") })}`;
}

export function isBatchOpen(batch: Pick<BatchOut, "status">): boolean {
  return batch.status === "queued" || batch.status === "running";
}

/** Percent of the batch's items that are finished (done, failed or skipped). */
export function batchDonePercent(batch: Pick<BatchOut, "total" | "done" | "failed" | "skipped">): number {
  if (batch.total <= 0) return 100;
  return Math.min(100, ((batch.done + batch.failed + batch.skipped) / batch.total) * 100);
}

export const BATCH_STATUS_LABELS: Readonly<Record<BatchOut["status"], string>> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  partial: "Done, some failed",
  error: "Failed",
};
