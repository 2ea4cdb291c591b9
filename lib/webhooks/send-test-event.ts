import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { newMessageId, TEST_EVENT_TYPE } from "@/lib/webhooks/events";
import { findEnabledEndpoint } from "@/lib/webhooks/find-endpoint";
import { serializeDelivery } from "@/lib/webhooks/serializers";
import { signalWebhooksQueued } from "@/lib/webhooks/signal";

/** POST /v1/me/webhooks/{id}/test: queues a `webhook.test` event for this endpoint (409 when it is disabled). */
export async function sendTestEvent(userId: string, id: string) {
  const endpoint = await findEnabledEndpoint(userId, id);
  const db = await getDb();
  const pending = await db.webhookDelivery.count({ where: { userId, status: "pending" } });
  if (pending >= env().WEBHOOK_MAX_PENDING)
    throw errors.conflict(
      "too_many_deliveries",
      `${pending} deliveries are still waiting to be sent; try again later.`,
    );
  const delivery = await db.webhookDelivery.create({
    data: {
      userId,
      endpointId: endpoint.id,
      url: endpoint.url,
      messageId: newMessageId(),
      eventType: TEST_EVENT_TYPE,
      payload: {
        type: TEST_EVENT_TYPE,
        timestamp: new Date().toISOString(),
        data: { endpoint_id: endpoint.id, message: "A test event from Verbatim." },
      },
    },
  });
  signalWebhooksQueued();
  return serializeDelivery(delivery);
}
