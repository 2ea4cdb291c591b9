import "server-only";
import path from "node:path";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { env } from "@/lib/env";

let cached: string | undefined;

/**
 * AUTH_SECRET when set (required with DATABASE_URL); with the embedded defaults a random secret is
 * made once and kept in DATA_DIR so sessions survive restarts.
 */
export function authSecret(): string {
  if (cached) return cached;
  const settings = env();
  if (settings.AUTH_SECRET) return (cached = settings.AUTH_SECRET);
  const file = path.resolve(settings.DATA_DIR, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return (cached = readFileSync(file, "utf8").trim());
}
