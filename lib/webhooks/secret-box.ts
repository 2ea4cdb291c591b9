// Webhook signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks). They must be kept
// readable (the server signs with them), so they are stored encrypted, AES-256-GCM under a key derived from
// the app's auth secret (AUTH_SECRET, or the embedded default's secret file): a database dump alone does not
// reveal them. Rotating AUTH_SECRET makes stored secrets unreadable: rotate each endpoint's secret then.
import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

const PREFIX = "v1:";

function key(): Buffer {
  return createHash("sha256").update("verbatim webhook secrets\0").update(authSecret()).digest();
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

export function openSecret(sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error("Unknown webhook secret format");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** The secret as shown after creation: its first characters only. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 10)}…`;
}
