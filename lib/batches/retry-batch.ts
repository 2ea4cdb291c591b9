import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { enqueueBatchLink } from "@/lib/batches/batch-pipeline";
import { lockBatch } from "@/lib/batches/batch-state";
import { getBatch } from "@/lib/batches/get-batch";
import type { BatchOut } from "@/lib/batches/schemas";

// POST /v1/batches/{batch_id}/retry: every failed item back to the queue, and the batch runs again if it had ended.
// Under the batch's row lock, which the batch chain's last link also takes before it ends the batch
// (batch-pipeline.ts onSuccess): either that link sees the queued items and goes on, or the batch had ended and
// this starts a new link. Each item is started again as the first time: an item whose transcription failed was
// refunded, so its one charge is the one its success makes; a batch with nothing failed is answered unchanged.

export async function retryBatch(accountId: string, batchId: string): Promise<BatchOut> {
  const db = await getDb();
  await db.$transaction(
    async (tx) => {
      const batch = await lockBatch(tx, batchId, accountId);
      if (!batch) throw errors.notFound("No batch with that id.");
      const { count } = await tx.batchItem.updateMany({
        where: { batchId, status: "failed" },
        data: { status: "queued", note: null, jobId: null },
      });
      if (count === 0) return;
      const open = await tx.job.count({
        where: {
          userId: accountId,
          status: { in: ["queued", "running"] },
          AND: [
            { input: { path: ["pipeline"], equals: "batch" } },
            { input: { path: ["context", "batchId"], equals: batchId } },
          ],
        },
      });
      await tx.batch.update({ where: { id: batchId }, data: { status: "running", note: null, finishedAt: null } });
      if (open === 0) await enqueueBatchLink(tx, batchId, accountId);
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
  return getBatch(accountId, batchId);
}
