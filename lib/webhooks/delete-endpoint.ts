import { getDb } from "@/lib/db/client";
import { findOwnEndpoint } from "@/lib/webhooks/find-endpoint";

/** DELETE /v1/me/webhooks/{id}: the endpoint and its deliveries (pending ones are not sent). */
export async function deleteWebhookEndpoint(userId: string, id: string): Promise<null> {
  await findOwnEndpoint(userId, id);
  const db = await getDb();
  await db.webhookEndpoint.deleteMany({ where: { id, userId } });
  return null;
}
