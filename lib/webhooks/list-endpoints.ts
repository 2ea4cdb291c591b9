import { getDb } from "@/lib/db/client";
import { serializeEndpoint } from "@/lib/webhooks/serializers";

/** GET /v1/me/webhooks: the caller's endpoints, secrets masked. */
export async function listWebhookEndpoints(userId: string) {
  const db = await getDb();
  const endpoints = await db.webhookEndpoint.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return { endpoints: endpoints.map((e) => serializeEndpoint(e)) };
}
