import type { Prisma } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { newMessageId, type WebhookPayload } from "@/lib/webhooks/events";
import { signalWebhooksQueued, WEBHOOKS_CHANNEL } from "@/lib/webhooks/signal";

export interface EmitInput {
  userId: string;
  payload: WebhookPayload;
  /** A per-request `webhook_url` (POST /v1/transcript or /v1/import), signed with the user's request secret. */
  requestUrl?: string | null;
}

/**
 * Queues one message (one `webhook-id`) for every enabled endpoint of the user that wants its type, and for
 * the request's own `webhook_url`. Call it with the transaction that finishes the job (a pipeline's
 * onSuccess / onFailure), so the event exists exactly when the job's outcome does: a crash before the commit
 * loses neither, one after it leaves rows the delivery runner finds. Past WEBHOOK_MAX_PENDING undelivered
 * deliveries the rows are recorded as failed instead (visible in the deliveries list), never sent.
 */
export async function emitWebhookEvent(tx: Prisma.TransactionClient, input: EmitInput): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { userId: input.userId, disabledAt: null, eventTypes: { has: input.payload.type } },
    select: { id: true, url: true },
  });
  const destinations: { endpointId: string | null; url: string }[] = endpoints.map((e) => ({
    endpointId: e.id,
    url: e.url,
  }));
  if (input.requestUrl) destinations.push({ endpointId: null, url: input.requestUrl });
  if (destinations.length === 0) return 0;
  const pending = await tx.webhookDelivery.count({ where: { userId: input.userId, status: "pending" } });
  const messageId = newMessageId();
  const payload = JSON.parse(JSON.stringify(input.payload)) as Prisma.InputJsonValue;
  const room = Math.max(0, env().WEBHOOK_MAX_PENDING - pending);
  await tx.webhookDelivery.createMany({
    data: destinations.map((d, i) => ({
      userId: input.userId,
      endpointId: d.endpointId,
      url: d.url,
      messageId,
      eventType: input.payload.type,
      payload,
      ...(i < room
        ? {}
        : {
            status: "failed",
            nextAttemptAt: null,
            lastError: `Not sent: this account already has ${env().WEBHOOK_MAX_PENDING} deliveries waiting.`,
          }),
    })),
  });
  if (room > 0) {
    await tx.$executeRaw`SELECT pg_notify(${WEBHOOKS_CHANNEL}, '')`;
    signalWebhooksQueued();
  }
  return destinations.length;
}
