import { getDb } from "@/lib/db/client";
import { findOwnEndpoint } from "@/lib/webhooks/find-endpoint";
import { serializeDelivery } from "@/lib/webhooks/serializers";

const RECENT = 50;

/** GET /v1/me/webhooks/{id}/deliveries: the endpoint's 50 most recent deliveries, newest first. */
export async function listDeliveries(userId: string, id: string) {
  await findOwnEndpoint(userId, id);
  const db = await getDb();
  const deliveries = await db.webhookDelivery.findMany({
    where: { endpointId: id, userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT,
  });
  return { deliveries: deliveries.map(serializeDelivery) };
}
