import "server-only";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { authSecret } from "@/lib/auth/secret";

// Signed PUT URLs for the embedded store (no S3):
//
//   <APP_URL>/uploads/<object_path>?expires=<unix seconds>&ct=<content type>&sig=<hex>
//   sig = HMAC-SHA256(key, "PUT|<object_path>|<expires>|<content type>")
//
// The key is UPLOAD_SECRET when set, else derived from the auth secret with HKDF-SHA256, so it is
// never the session key itself and rotating AUTH_SECRET also invalidates outstanding upload URLs.

const HKDF_INFO = "verbatim/uploads/v1";

let cachedKey: { secret: string; key: Buffer } | undefined;

function uploadKey(): Buffer {
  const explicit = env().UPLOAD_SECRET;
  const secret = explicit ?? authSecret();
  if (cachedKey?.secret !== secret) {
    const key = explicit
      ? Buffer.from(explicit, "utf8")
      : Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), HKDF_INFO, 32));
    cachedKey = { secret, key };
  }
  return cachedKey.key;
}

export interface SignedFields {
  method: string;
  objectPath: string;
  /** Unix seconds. */
  expires: number;
  contentType: string;
}

export function localSignature(fields: SignedFields): string {
  const message = [fields.method.toUpperCase(), fields.objectPath, String(fields.expires), fields.contentType].join(
    "|",
  );
  return createHmac("sha256", uploadKey()).update(message, "utf8").digest("hex");
}

/** Constant-time comparison of a presented signature with the expected one. */
export function verifyLocalSignature(fields: SignedFields, presented: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(presented)) return false;
  return timingSafeEqual(Buffer.from(localSignature(fields), "hex"), Buffer.from(presented, "hex"));
}

export function localUploadUrl(objectPath: string, contentType: string, expires: number): string {
  const base = env().APP_URL.replace(/\/+$/, "");
  const sig = localSignature({ method: "PUT", objectPath, expires, contentType });
  const query = new URLSearchParams({ expires: String(expires), ct: contentType, sig });
  return `${base}/uploads/${objectPath}?${query.toString()}`;
}
