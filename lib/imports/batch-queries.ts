import type { Prisma } from "@/lib/generated/prisma/client";

// The statements an import batch's retry and its chain's last link coordinate by: the batch's row lock (see
// retry-import-item.ts), and the import jobs of a batch.

type Tx = Prisma.TransactionClient;

/** Locks the batch's row until the transaction ends. */
export async function lockBatch(tx: Tx, batchId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "ImportBatch" WHERE "id" = ${batchId} FOR UPDATE`;
}

/** The user's batch, its row locked until the transaction ends; undefined when the user has no such batch. */
export async function lockUsersBatch(tx: Tx, userId: string, batchId: string) {
  const [batch] = await tx.$queryRaw<{ id: string; sourceUrl: string; lang: string }[]>`
        SELECT "id", "sourceUrl", "lang" FROM "ImportBatch" WHERE "id" = ${batchId} AND "userId" = ${userId} FOR UPDATE`;
  return batch;
}

/** The batch's import jobs (each link of its chain), newest first, with each one's context. */
export async function batchJobs<Context>(
  tx: Tx,
  userId: string,
  batchId: string,
): Promise<{ status: string; context: Context }[]> {
  return tx.$queryRaw<{ status: string; context: Context }[]>`
        SELECT "status"::text AS "status", "input"->'context' AS "context" FROM "Job"
        WHERE "userId" = ${userId} AND "input"->>'pipeline' = 'import' AND "input"->'context'->>'batchId' = ${batchId}
        ORDER BY "createdAt" DESC`;
}
