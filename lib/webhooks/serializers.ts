import type { WebhookDelivery, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { openSecret } from "@/lib/auth/secret-box";
import { maskSecret } from "@/lib/webhooks/signing-secret";
import type { WebhookEndpointOut } from "@/lib/webhooks/schemas";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `secret`: the full secret where the caller is shown it once (creation, rotation); masked otherwise. */
export function serializeEndpoint(endpoint: WebhookEndpoint, fullSecret?: string): WebhookEndpointOut {
  let secret = fullSecret;
  if (!secret) {
    try {
      secret = maskSecret(openSecret("webhook", endpoint.secretCipher));
    } catch {
      secret = "whsec_…";
    }
  }
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    secret,
    enabled: endpoint.disabledAt === null,
    disabled_reason: endpoint.disabledReason,
    failing_since: iso(endpoint.failingSince),
    created_at: endpoint.createdAt.toISOString(),
  };
}

export function serializeDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    webhook_id: delivery.messageId,
    event_type: delivery.eventType,
    status: delivery.status as "pending" | "delivered" | "failed",
    attempts: delivery.attempts,
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
  };
}
