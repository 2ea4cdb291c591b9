import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { findEnabledEndpoint } from "@/lib/webhooks/find-endpoint";
import { serializeDelivery } from "@/lib/webhooks/serializers";
import { signalWebhooksQueued } from "@/lib/webhooks/signal";

/**
 * POST /v1/me/webhooks/{id}/deliveries/{delivery_id}/redeliver: sends the same message (same `webhook-id`,
 * same payload) again now, with a fresh set of attempts.
 */
export async function redeliver(userId: string, id: string, deliveryId: string) {
  await findEnabledEndpoint(userId, id);
  const db = await getDb();
  const updated = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId: id, userId, status: { not: "pending" } },
    data: { status: "pending", attempts: 0, nextAttemptAt: new Date(), leaseOwner: null, leaseUntil: null },
  });
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id, userId } });
  if (!delivery) throw errors.notFound("No delivery with this id for this endpoint.");
  if (updated.count > 0) signalWebhooksQueued();
  return serializeDelivery(delivery);
}
