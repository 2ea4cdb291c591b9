import { getDb } from "@/lib/db/client";
import { serializeBatch } from "@/lib/imports/serializers";
import type { ImportBatchOut } from "@/lib/imports/schemas";

/** GET /v1/import: the caller's 100 newest batches. */
export async function listImports(userId: string): Promise<ImportBatchOut[]> {
  const db = await getDb();
  const rows = await db.importBatch.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  return rows.map(serializeBatch);
}
