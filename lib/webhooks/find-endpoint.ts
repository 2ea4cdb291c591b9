import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";

/** The caller's endpoint, or 404 (another user's endpoint is not found either). */
export async function findOwnEndpoint(userId: string, id: string) {
  const db = await getDb();
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, userId } });
  if (!endpoint) throw errors.notFound("No webhook endpoint with this id.");
  return endpoint;
}
