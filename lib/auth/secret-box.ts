// Secrets the server must read back (it signs or checks signatures with them) are stored sealed: AES-256-GCM under
// a key derived from the app's auth secret (AUTH_SECRET, or the embedded default's secret file) and the secret's
// purpose, so a database dump alone does not reveal them and one purpose's cipher does not open as another's.
// Rotating AUTH_SECRET makes every sealed secret unreadable; each purpose says what happens then (a webhook
// endpoint's secret is rotated by its owner, a WebSub push secret is replaced at the subscription's renewal).
import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

/** Each purpose's label in the key derivation (a label, once used, never changes: its ciphers would not open). */
const LABELS = {
  /** Outbound webhooks' `whsec_…` signing secrets (lib/webhooks). */
  webhook: "verbatim webhook secrets",
  /** The secret a WebSub hub signs a followed show's pushes with (lib/follows/push-subscribe.ts). */
  websubPush: "verbatim websub push secrets",
  /** An export destination's token (a Notion integration's), read back to deliver notes (lib/exports/destinations). */
  exportDestination: "verbatim export destination secrets",
} as const;

export type SecretPurpose = keyof typeof LABELS;

const PREFIX = "v1:";

function key(purpose: SecretPurpose): Buffer {
  return createHash("sha256").update(`${LABELS[purpose]}\0`).update(authSecret()).digest();
}

export function sealSecret(purpose: SecretPurpose, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The sealed secret; throws when it is not one, or was sealed under another auth secret or purpose. */
export function openSecret(purpose: SecretPurpose, sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error("Unknown sealed secret format");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key(purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
