import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { serializeBatch } from "@/lib/imports/serializers";
import type { ImportBatchOut } from "@/lib/imports/schemas";

/** GET /v1/import/{batch_id}: 404 for unknown ids and other users' batches alike. */
export async function getImport(userId: string, batchId: string): Promise<ImportBatchOut> {
  const db = await getDb();
  const row = await db.importBatch.findFirst({ where: { id: batchId, userId } });
  if (!row) throw errors.notFound("No import batch with that id.");
  return serializeBatch(row);
}
