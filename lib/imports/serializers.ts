import type { ImportBatch } from "@/lib/generated/prisma/client";
import { IMPORT_STATUSES, type ImportBatchOut, type ImportStatus } from "@/lib/imports/schemas";

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
