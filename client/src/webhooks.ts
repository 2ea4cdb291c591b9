import { Webhook } from "standardwebhooks";

import { VerbatimError } from "./errors.js";
import type { WebhookEvent } from "./types.js";

/**
 * Checks a webhook request's Standard Webhooks signature with `secret` (`whsec_…`; several during a rotation)
 * and returns the event. Pass the raw body: a fetch Request, or `{headers, body}` with the body as received.
 */
export async function verifyWebhook(
  request: Request | { headers: Headers | Record<string, string | string[] | undefined>; body: string },
  secret: string | string[],
): Promise<WebhookEvent> {
  const body = request instanceof Request ? await request.text() : request.body;
  const raw = request.headers;
  const headers: Record<string, string> = {};
  if (typeof (raw as Headers).forEach === "function" && typeof (raw as Headers).get === "function") {
    (raw as Headers).forEach((value, key) => (headers[key.toLowerCase()] = value));
  } else {
    for (const [key, value] of Object.entries(raw as Record<string, string | string[] | undefined>)) {
      if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  for (const candidate of Array.isArray(secret) ? secret : [secret]) {
    try {
      return new Webhook(candidate).verify(body, headers) as WebhookEvent;
    } catch {
      // next secret
    }
  }
  throw new VerbatimError(
    "invalid_signature",
    "The webhook's signature does not match the secret (or its timestamp is too old).",
  );
}
