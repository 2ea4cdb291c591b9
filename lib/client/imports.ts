// Browser side of imports: start one (POST /v1/import), list the caller's batches (GET /v1/import).

import type { ImportBatchOut } from "@/lib/imports/schemas";
import { apiFetch } from "@/lib/client/api";

export type { ImportBatchOut };

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
