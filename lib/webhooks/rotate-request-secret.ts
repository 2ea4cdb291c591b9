import { getDb } from "@/lib/db/client";
import { sealSecret } from "@/lib/auth/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/signing-secret";

/**
 * POST /v1/me/webhooks/request-secret: creates (or replaces) the secret that signs deliveries to per-request
 * `webhook_url`s; shown in this answer only. A replaced secret keeps signing too for 24 hours (a second
 * signature in `webhook-signature`, as endpoints' rotations do), so receivers can switch without losing events.
 */
export async function rotateRequestSecret(userId: string) {
  const db = await getDb();
  const secret = generateWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    const current = await tx.webhookRequestSecret.findUnique({ where: { userId } });
    if (!current)
      return tx.webhookRequestSecret.create({ data: { userId, secretCipher: sealSecret("webhook", secret) } });
    return tx.webhookRequestSecret.update({
      where: { userId },
      data: {
        secretCipher: sealSecret("webhook", secret),
        previousSecretCipher: current.secretCipher,
        secretRotatedAt: new Date(),
      },
    });
  });
  return { secret, created_at: row.updatedAt.toISOString() };
}
