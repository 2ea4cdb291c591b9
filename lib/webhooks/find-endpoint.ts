import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";

/** The caller's endpoint, or 404 (another user's endpoint is not found either). */
export async function findOwnEndpoint(userId: string, id: string) {
  const db = await getDb();
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, userId } });
  if (!endpoint) throw errors.notFound("No webhook endpoint with this id.");
  return endpoint;
}

/** The caller's endpoint when it is enabled: 404 as findOwnEndpoint, 409 webhook_disabled when it is disabled. */
export async function findEnabledEndpoint(userId: string, id: string) {
  const endpoint = await findOwnEndpoint(userId, id);
  if (endpoint.disabledAt)
    throw errors.conflict(
      "webhook_disabled",
      `This endpoint is disabled (${endpoint.disabledReason ?? "disabled"}); rotate its secret to enable it again.`,
    );
  return endpoint;
}
