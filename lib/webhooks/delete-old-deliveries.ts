import { getDb } from "@/lib/db/client";

/** Finished deliveries (delivered or failed) are kept this long for the deliveries list, then removed. */
export const DELIVERY_RETENTION_DAYS = 30;

/** Removes finished deliveries older than DELIVERY_RETENTION_DAYS (the hourly cleanup). Pending ones stay. */
export async function deleteOldDeliveries(now = new Date()): Promise<number> {
  const db = await getDb();
  const before = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000);
  const { count } = await db.webhookDelivery.deleteMany({
    where: { status: { in: ["delivered", "failed"] }, createdAt: { lt: before } },
  });
  return count;
}
