import type { Prisma } from "@/lib/generated/prisma/client";
import { summarise, type Counts } from "@/lib/imports/batch-status";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { batchEvent } from "@/lib/webhooks/events";

// A batch's state is its items': counted from their rows (one indexed group-by), never kept in step by hand. The
// statements the batch's chain of jobs and a retry coordinate by (the batch's row lock) live here too.

type Tx = Prisma.TransactionClient;

export async function countItems(db: Tx, batchId: string): Promise<Counts> {
  const groups = await db.batchItem.groupBy({ by: ["status"], where: { batchId }, _count: { _all: true } });
  const counts: Counts = { queued: 0, running: 0, done: 0, failed: 0, skipped: 0 };
  for (const g of groups) if (g.status in counts) counts[g.status as keyof Counts] = g._count._all;
  return counts;
}

/** Locks the batch's row until the transaction ends; its owner's batch only (undefined when there is none). */
export async function lockBatch(tx: Tx, batchId: string, userId?: string) {
  const [batch] = userId
    ? await tx.$queryRaw<{ id: string; status: string }[]>`
        SELECT "id", "status" FROM "Batch" WHERE "id" = ${batchId} AND "userId" = ${userId} FOR UPDATE`
    : await tx.$queryRaw<{ id: string; status: string }[]>`
        SELECT "id", "status" FROM "Batch" WHERE "id" = ${batchId} FOR UPDATE`;
  return batch;
}

/**
 * Gives the batch its final status and note and sends batch.completed, in the caller's transaction (the one that
 * ends the batch's last job), so the event is sent exactly when the batch ends, once per end.
 */
export async function finishBatch(tx: Tx, batchId: string): Promise<void> {
  const counts = await countItems(tx, batchId);
  const first = await tx.batchItem.findFirst({
    where: { batchId, status: "failed" },
    orderBy: { line: "asc" },
    select: { note: true },
  });
  const summary =
    counts.done + counts.failed === 0
      ? {
          status: "error",
          note: "Nothing to transcribe: every line was a duplicate or not a link Verbatim takes.",
        }
      : summarise(counts, first?.note ?? null);
  const batch = await tx.batch.update({
    where: { id: batchId },
    data: { ...summary, finishedAt: new Date() },
  });
  await emitWebhookEvent(tx, {
    userId: batch.userId,
    payload: batchEvent({ batchId, status: summary.status, note: summary.note, ...counts }),
    requestUrl: batch.webhookUrl ?? undefined,
  });
}
