import { randomBytes } from "node:crypto";

// Webhook signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks), stored sealed for the
// `webhook` purpose (lib/auth/secret-box.ts). Rotating AUTH_SECRET makes stored secrets unreadable: rotate each
// endpoint's secret then.

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The secret as shown after creation: its first characters only. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 10)}…`;
}
