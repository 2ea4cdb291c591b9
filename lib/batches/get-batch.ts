import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { countItems } from "@/lib/batches/batch-state";
import { serializeBatch } from "@/lib/batches/serializers";
import type { BatchOut } from "@/lib/batches/schemas";

/** GET /v1/batches/{batch_id}: the account's batch with its counts and every item's state, in list order. */
export async function getBatch(accountId: string, batchId: string): Promise<BatchOut> {
  const db = await getDb();
  const batch = await db.batch.findFirst({ where: { id: batchId, userId: accountId } });
  if (!batch) throw errors.notFound("No batch with that id.");
  const [counts, items] = await Promise.all([
    countItems(db, batchId),
    db.batchItem.findMany({ where: { batchId }, orderBy: { line: "asc" } }),
  ]);
  return serializeBatch(batch, counts, items);
}
