import { createHash, randomBytes } from "node:crypto";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** `prefix` + base58 of `bytes` random bytes: an opaque secret for keys, tokens and codes. */
export function randomSecret(prefix: string, bytes = 32): string {
  return prefix + base58(randomBytes(bytes));
}

/** Secrets are stored and looked up only by this digest. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
