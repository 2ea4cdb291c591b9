import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { batchJobs, lockUsersBatch } from "@/lib/imports/batch-queries";
import { enqueueImportLink, refreshCounts, type ImportContext } from "@/lib/imports/import-pipeline";
import { serializeItem } from "@/lib/imports/serializers";
import type { ImportItemOut } from "@/lib/imports/schemas";

// POST /v1/import/{batch_id}/items/retry: a failed item goes back to the queue, and the batch runs again if
// it had ended. Under the batch's row lock, which the import chain's last link also takes before it finishes
// (import-pipeline.ts onSuccess): either that link sees the queued item and goes on, or it has finished and
// this starts a new link. Retrying an item that is not failed changes nothing and answers it as it is.

export async function retryImportItem(userId: string, batchId: string, guid: string): Promise<ImportItemOut> {
  const db = await getDb();
  return db.$transaction(
    async (tx) => {
      const batch = await lockUsersBatch(tx, userId, batchId);
      if (!batch) throw errors.notFound("No import batch with that id.");
      const item = await tx.importItem.findUnique({ where: { batchId_guid: { batchId, guid } } });
      if (!item) throw errors.notFound("No item with that guid in this batch.");
      if (item.status !== "failed") return serializeItem(item, null);

      const queued = await tx.importItem.update({
        where: { id: item.id },
        data: { status: "queued", note: null, jobId: null },
      });
      await refreshCounts(tx, batchId);
      const jobs = await batchJobs<ImportContext>(tx, userId, batchId);
      if (!jobs.some((job) => job.status === "queued" || job.status === "running")) {
        const webhookUrl = jobs.find((job) => job.context.webhookUrl)?.context.webhookUrl;
        // The batch's vocabulary lives in its jobs' context, as its webhook does.
        const vocabulary = jobs.find((job) => job.context.vocabulary?.length)?.context.vocabulary;
        await tx.importBatch.update({ where: { id: batchId }, data: { status: "running", note: null } });
        await enqueueImportLink(tx, {
          batchId,
          userId,
          url: batch.sourceUrl,
          lang: batch.lang,
          ...(vocabulary?.length ? { vocabulary } : {}),
          ...(webhookUrl ? { webhookUrl } : {}),
        });
      }
      return serializeItem(queued, null);
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
}
