import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { checkWebhookUrl } from "@/lib/webhooks/check-url";
import type { CreateWebhookRequest } from "@/lib/webhooks/schemas";
import { sealSecret } from "@/lib/auth/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/signing-secret";
import { serializeEndpoint } from "@/lib/webhooks/serializers";
import { WEBHOOK_ROLE, lockTeam, roleIn } from "@/lib/membership/access";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * In a team, the person's right to manage its webhooks read again under the team's lock: their removal or a lower
 * role that commits first (which disables the endpoints they registered, lib/membership/role-loss.ts) is seen.
 */
export async function mayStillManage(tx: Prisma.TransactionClient, userId: string, personId: string | null) {
  if (personId === null || personId === userId) return;
  await lockTeam(tx, userId);
  await roleIn(tx, userId, personId, WEBHOOK_ROLE);
}

/**
 * POST /v1/me/webhooks: a new endpoint (one per URL: 409 webhook_exists); its secret is in this answer only. The
 * person who registers it (`personId`; none for a team's key) is kept: in a team it stops when they go.
 */
export async function createWebhookEndpoint(
  { userId, personId }: { userId: string; personId: string | null },
  request: CreateWebhookRequest,
) {
  const url = checkWebhookUrl(request.url, ["body", "url"]);
  const db = await getDb();
  const secret = generateWebhookSecret();
  const endpoint = await db.$transaction(async (tx) => {
    await mayStillManage(tx, userId, personId);
    // Serialises concurrent creations of one user, so the cap holds.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`;
    const count = await tx.webhookEndpoint.count({ where: { userId } });
    if (count >= env().WEBHOOK_MAX_ENDPOINTS) {
      throw errors.conflict(
        "too_many_webhooks",
        `An account can have ${env().WEBHOOK_MAX_ENDPOINTS} webhook endpoints; delete one first.`,
      );
    }
    // One endpoint per URL: a second would receive every event twice (each endpoint has its own deliveries).
    const same = await tx.webhookEndpoint.findFirst({ where: { userId, url }, select: { id: true } });
    if (same) {
      throw errors.conflict(
        "webhook_exists",
        `This account already has an endpoint for this URL (${same.id}); delete it first, or keep using it.`,
      );
    }
    return tx.webhookEndpoint.create({
      data: {
        userId,
        url,
        eventTypes: [...new Set(request.event_types)],
        secretCipher: sealSecret("webhook", secret),
        createdById: personId,
      },
    });
  });
  return serializeEndpoint(endpoint, secret);
}
