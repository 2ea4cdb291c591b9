import { getDb } from "@/lib/db/client";
import { mayStillManage } from "@/lib/webhooks/create-endpoint";
import { findOwnEndpoint } from "@/lib/webhooks/find-endpoint";
import { sealSecret } from "@/lib/auth/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/signing-secret";
import { serializeEndpoint } from "@/lib/webhooks/serializers";

/**
 * POST /v1/me/webhooks/{id}/rotate-secret: a new secret, in this answer only; every later attempt (retries
 * of earlier messages included) is signed with it, and for 24 hours with the previous one as well (two
 * signatures in `webhook-signature`), so receivers can switch without losing events. Rotating also
 * re-enables a disabled endpoint, and makes the person who rotates it the one it goes with (they hold the secret).
 */
export async function rotateWebhookSecret(
  { userId, personId }: { userId: string; personId: string | null },
  id: string,
) {
  const current = await findOwnEndpoint(userId, id);
  const db = await getDb();
  const secret = generateWebhookSecret();
  const endpoint = await db.$transaction(async (tx) => {
    await mayStillManage(tx, userId, personId);
    return tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretCipher: sealSecret("webhook", secret),
        previousSecretCipher: current.secretCipher,
        secretRotatedAt: new Date(),
        disabledAt: null,
        disabledReason: null,
        failingSince: null,
        createdById: personId,
      },
    });
  });
  return serializeEndpoint(endpoint, secret);
}
