import type { Batch, BatchItem } from "@/lib/generated/prisma/client";
import type { Counts } from "@/lib/imports/batch-status";
import type { BatchItemOut, BatchOut } from "@/lib/batches/schemas";

export function serializeItem(item: BatchItem): BatchItemOut {
  return {
    line: item.line,
    url: item.url,
    status: item.status as BatchItemOut["status"],
    note: item.note,
    job_id: item.jobId,
    transcript_id: item.transcriptId,
  };
}

export function serializeBatch(batch: Batch, counts: Counts, items: BatchItem[]): BatchOut {
  return {
    id: batch.id,
    status: batch.status as BatchOut["status"],
    lang: batch.lang,
    total: batch.total,
    ...counts,
    note: batch.note,
    created_at: batch.createdAt.toISOString(),
    finished_at: batch.finishedAt?.toISOString() ?? null,
    items: items.map(serializeItem),
  };
}
