import type { ImportBatch, ImportItem } from "@/lib/generated/prisma/client";
import {
  IMPORT_ITEM_STATUSES,
  IMPORT_STATUSES,
  type ImportBatchOut,
  type ImportItemOut,
  type ImportItemStatus,
  type ImportStatus,
} from "@/lib/imports/schemas";

export function serializeBatch(row: ImportBatch): ImportBatchOut {
  const status = (IMPORT_STATUSES as readonly string[]).includes(row.status) ? (row.status as ImportStatus) : "error";
  return {
    id: row.id,
    source_url: row.sourceUrl,
    title: row.title,
    total: row.total,
    done: row.done,
    failed: row.failed,
    skipped: row.skipped,
    status,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

export function serializeItem(row: ImportItem, transcriptId: string | null): ImportItemOut {
  const status = (IMPORT_ITEM_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as ImportItemStatus)
    : "failed";
  return {
    guid: row.guid,
    title: row.title,
    url: row.audioUrl,
    position: row.position,
    status,
    note: row.note,
    job_id: row.jobId,
    transcript_id: status === "done" || status === "skipped" ? transcriptId : null,
  };
}
