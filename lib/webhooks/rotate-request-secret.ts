import { getDb } from "@/lib/db/client";
import { generateWebhookSecret, sealSecret } from "@/lib/webhooks/secret-box";

/**
 * POST /v1/me/webhooks/request-secret: creates (or replaces) the secret that signs deliveries to per-request
 * `webhook_url`s; shown in this answer only.
 */
export async function rotateRequestSecret(userId: string) {
  const db = await getDb();
  const secret = generateWebhookSecret();
  const row = await db.webhookRequestSecret.upsert({
    where: { userId },
    create: { userId, secretCipher: sealSecret(secret) },
    update: { secretCipher: sealSecret(secret) },
  });
  return { secret, created_at: row.updatedAt.toISOString() };
}
