// One delivery attempt: sign, POST through the outbound guard (which checks the resolved address at every
// attempt), and record the outcome on the row, only if this runner still holds its lease.
import type { Prisma, WebhookDelivery } from "@/lib/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isOutboundError, type Outbound } from "@/lib/http/outbound";
import { log } from "@/lib/observability/logger";
import { MAX_RETRY_DELAY_MS, retryDelayMs } from "@/lib/webhooks/backoff";
import { openSecret } from "@/lib/auth/secret-box";
import { webhookHeaders } from "@/lib/webhooks/sign";

/** After a rotation, deliveries carry the previous secret's signature too for this long (Standard Webhooks' rotation). */
export const ROTATION_GRACE_MS = 24 * 3600_000;

export type AttemptOutcome = "delivered" | "retry" | "failed" | "lost";

interface Answer {
  status: number | null;
  error: string | null;
  /** Retrying cannot help (the URL is refused by the guard, or the receiver said 410 Gone). */
  final: boolean;
}

async function post(outbound: Outbound, delivery: WebhookDelivery, secrets: string[]): Promise<Answer> {
  const body = JSON.stringify(delivery.payload);
  const headers = webhookHeaders(secrets, delivery.messageId, new Date(), body);
  const timeoutMs = env().WEBHOOK_TIMEOUT_MS;
  try {
    const res = await outbound.safeFetchStream(delivery.url, {
      method: "POST",
      headers,
      body,
      timeoutMs,
      connectTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      followRedirects: false,
      retries: 0,
      // The status decides and the body is never read: however long the receiver says its answer is, that
      // is no reason to refuse it (and deliver again what it has accepted).
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    res.body.destroy();
    if (res.status >= 200 && res.status < 300) return { status: res.status, error: null, final: false };
    return { status: res.status, error: `Answered ${res.status}`, final: res.status === 410 };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const refused =
      isOutboundError(error) && (error.code === "address_not_allowed" || error.code === "url_not_allowed");
    return { status: null, error: message.slice(0, 500), final: refused };
  }
}

/**
 * The secrets the delivery is signed with: its endpoint's (and the previous one within ROTATION_GRACE_MS of a
 * rotation), or the user's request secret for a per-request URL.
 */
async function signingSecrets(
  db: Db,
  delivery: WebhookDelivery,
  now: Date,
): Promise<{ secrets: string[] | null; reason?: string; failingSince?: Date | null }> {
  if (delivery.endpointId) {
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } });
    if (!endpoint) return { secrets: null, reason: "The endpoint was deleted." };
    if (endpoint.disabledAt)
      return { secrets: null, reason: `The endpoint is disabled: ${endpoint.disabledReason ?? "disabled"}` };
    return { secrets: withPrevious(endpoint, now), failingSince: endpoint.failingSince };
  }
  const request = await db.webhookRequestSecret.findUnique({ where: { userId: delivery.userId } });
  return request
    ? { secrets: withPrevious(request, now) }
    : { secrets: null, reason: "The account has no request signing secret." };
}

/** The current secret, and the one it replaced while the rotation is younger than ROTATION_GRACE_MS. */
function withPrevious(
  row: { secretCipher: string; previousSecretCipher: string | null; secretRotatedAt: Date | null },
  now: Date,
): string[] {
  const secrets = [openSecret("webhook", row.secretCipher)];
  if (
    row.previousSecretCipher &&
    row.secretRotatedAt &&
    now.getTime() - row.secretRotatedAt.getTime() < ROTATION_GRACE_MS
  )
    secrets.push(openSecret("webhook", row.previousSecretCipher));
  return secrets;
}

/** Runs one attempt of a claimed delivery (its `attempts` already counts this one) and records it. */
export async function attemptDelivery(
  db: Db,
  outbound: Outbound,
  delivery: WebhookDelivery,
  owner: string,
): Promise<AttemptOutcome> {
  const now = new Date();
  const { secrets, reason, failingSince } = await signingSecrets(db, delivery, now);
  const answer: Answer = secrets
    ? await post(outbound, delivery, secrets)
    : { status: null, error: reason ?? "No secret", final: true };
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const outOfAttempts = delivery.attempts >= env().WEBHOOK_MAX_ATTEMPTS;
  const outcome: AttemptOutcome = ok ? "delivered" : answer.final || outOfAttempts ? "failed" : "retry";
  const retryAt = new Date(now.getTime() + retryDelayMs(delivery.attempts));
  const data: Prisma.WebhookDeliveryUpdateManyMutationInput = {
    lastAttemptAt: now,
    lastStatusCode: answer.status,
    lastError: answer.error,
    leaseOwner: null,
    leaseUntil: null,
    status: outcome === "retry" ? "pending" : outcome,
    nextAttemptAt: outcome === "retry" ? retryAt : null,
    ...(ok ? { deliveredAt: now } : {}),
  };
  const saved = await db.$transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({ where: { id: delivery.id, leaseOwner: owner }, data });
    if (updated.count === 0 || !delivery.endpointId || !secrets) return updated.count > 0;
    if (ok) {
      await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, failingSince: { not: null } },
        data: { failingSince: null },
      });
    } else if (answer.status === 410) {
      await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, disabledAt: null },
        data: { disabledAt: now, disabledReason: "The endpoint answered 410 Gone." },
      });
    } else {
      await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, failingSince: null },
        data: { failingSince: now },
      });
      // The endpoint is backed off as a whole, not one delivery at a time: its other waiting deliveries wait
      // at least as long as this one, and as long again as it has been failing, so that an endpoint that
      // keeps timing out is tried less and less often instead of once per queued event.
      const failingFor = failingSince ? now.getTime() - failingSince.getTime() : 0;
      const resumeAt = new Date(Math.max(retryAt.getTime(), now.getTime() + Math.min(failingFor, MAX_RETRY_DELAY_MS)));
      await tx.webhookDelivery.updateMany({
        where: {
          endpointId: delivery.endpointId,
          status: "pending",
          id: { not: delivery.id },
          leaseOwner: null,
          nextAttemptAt: { lt: resumeAt },
        },
        data: { nextAttemptAt: resumeAt },
      });
      const since = new Date(now.getTime() - env().WEBHOOK_DISABLE_AFTER_HOURS * 3600_000);
      const disabled = await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, disabledAt: null, failingSince: { lte: since } },
        data: {
          disabledAt: now,
          disabledReason: `Every delivery failed for ${env().WEBHOOK_DISABLE_AFTER_HOURS} hours.`,
        },
      });
      if (disabled.count > 0)
        log.warn({ endpointId: delivery.endpointId }, "webhook endpoint disabled after failing for too long");
    }
    return true;
  });
  return saved ? outcome : "lost";
}
