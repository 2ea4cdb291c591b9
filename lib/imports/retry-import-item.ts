import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { enqueueImportLink, refreshCounts, type ImportContext } from "@/lib/imports/import-pipeline";
import { serializeItem } from "@/lib/imports/serializers";
import type { ImportItemOut } from "@/lib/imports/schemas";

// POST /v1/import/{batch_id}/items/retry: a failed item goes back to the queue, and the batch runs again if
// it had ended. Under the batch's row lock, which the import chain's last link also takes before it finishes
// (import-pipeline.ts onSuccess): either that link sees the queued item and goes on, or it has finished and
// this starts a new link. Retrying an item that is not failed changes nothing and answers it as it is.

interface ImportJobRow {
  status: string;
  context: ImportContext;
}

export async function retryImportItem(userId: string, batchId: string, guid: string): Promise<ImportItemOut> {
  const db = await getDb();
  return db.$transaction(
    async (tx) => {
      const [batch] = await tx.$queryRaw<{ id: string; sourceUrl: string; lang: string }[]>`
        SELECT "id", "sourceUrl", "lang" FROM "ImportBatch" WHERE "id" = ${batchId} AND "userId" = ${userId} FOR UPDATE`;
      if (!batch) throw errors.notFound("No import batch with that id.");
      const item = await tx.importItem.findUnique({ where: { batchId_guid: { batchId, guid } } });
      if (!item) throw errors.notFound("No item with that guid in this batch.");
      if (item.status !== "failed") return serializeItem(item, null);

      const queued = await tx.importItem.update({
        where: { id: item.id },
        data: { status: "queued", note: null, jobId: null },
      });
      await refreshCounts(tx, batchId);
      const jobs = await tx.$queryRaw<ImportJobRow[]>`
        SELECT "status"::text AS "status", "input"->'context' AS "context" FROM "Job"
        WHERE "userId" = ${userId} AND "input"->>'pipeline' = 'import' AND "input"->'context'->>'batchId' = ${batchId}
        ORDER BY "createdAt" DESC`;
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
