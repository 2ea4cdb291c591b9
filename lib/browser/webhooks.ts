// Browser side of webhooks (the dashboard's Webhooks page): endpoints, their recent deliveries, test events,
// send again, secret rotation, and the request signing secret (POST /v1/me/webhooks…).

import { apiFetch } from "@/lib/browser/api";

export const WEBHOOK_EVENT_LABELS = {
  "transcript.completed": "Transcript ready",
  "transcript.failed": "Transcription failed",
  "import.completed": "Import finished",
  "alert.matched": "Alert matched",
  "batch.completed": "Batch finished",
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_LABELS;

export interface WebhookEndpointView {
  id: string;
  url: string;
  event_types: string[];
  secret: string;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
}

export interface WebhookDeliveryView {
  id: string;
  webhook_id: string;
  event_type: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

export const WEBHOOKS_KEY = ["webhooks"] as const;
export const deliveriesKey = (id: string) => [...WEBHOOKS_KEY, id, "deliveries"] as const;

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const enc = encodeURIComponent;

export const fetchWebhooks = () =>
  apiFetch<{ endpoints: WebhookEndpointView[] }>("/v1/me/webhooks").then((r) => r.endpoints);
export const createWebhook = (input: { url: string; event_types: WebhookEventType[] }) =>
  apiFetch<WebhookEndpointView>("/v1/me/webhooks", json(input));
export const deleteWebhook = (id: string) => apiFetch<null>(`/v1/me/webhooks/${enc(id)}`, { method: "DELETE" });
export const rotateWebhookSecret = (id: string) =>
  apiFetch<WebhookEndpointView>(`/v1/me/webhooks/${enc(id)}/rotate-secret`, { method: "POST" });
export const sendTestEvent = (id: string) =>
  apiFetch<WebhookDeliveryView>(`/v1/me/webhooks/${enc(id)}/test`, { method: "POST" });
export const fetchDeliveries = (id: string) =>
  apiFetch<{ deliveries: WebhookDeliveryView[] }>(`/v1/me/webhooks/${enc(id)}/deliveries`).then((r) => r.deliveries);
export const redeliver = (id: string, deliveryId: string) =>
  apiFetch<WebhookDeliveryView>(`/v1/me/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`, {
    method: "POST",
  });
export const rotateRequestSecret = () =>
  apiFetch<{ secret: string; created_at: string }>("/v1/me/webhooks/request-secret", { method: "POST" });

/** One line for a delivery's state: "Delivered (200)", "Retrying (2 attempts, last 500)", "Failed: …". */
export function deliveryState(
  d: Pick<WebhookDeliveryView, "status" | "attempts" | "last_status_code" | "last_error">,
): string {
  const answer = d.last_status_code !== null ? `${d.last_status_code}` : d.last_error ? "no answer" : null;
  if (d.status === "delivered") return `Delivered${answer ? ` (${answer})` : ""}`;
  if (d.status === "pending")
    return d.attempts === 0
      ? "Waiting"
      : `Retrying (${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"}, last ${answer ?? "no answer"})`;
  return `Failed${d.last_error ? `: ${d.last_error}` : answer ? ` (${answer})` : ""}`;
}
