// Standard Webhooks headers (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` (Unix
// seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the
// base64-decoded part of the `whsec_` secret. Signed by the reference library, so receivers using it
// (or svix) verify unchanged.
import { Webhook } from "standardwebhooks";

/** `secrets`: the current one first; during a rotation the previous one too (one signature each, space-separated). */
export function webhookHeaders(
  secrets: string | string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const signature = (Array.isArray(secrets) ? secrets : [secrets])
    .map((secret) => new Webhook(secret).sign(messageId, at, body))
    .join(" ");
  return {
    "content-type": "application/json",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
