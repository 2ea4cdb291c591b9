import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { openSecret, sealSecret } from "@/lib/auth/secret-box";

vi.mock("@/lib/auth/secret", () => ({ authSecret: () => "unit-test-auth-secret-unit-test-auth-secret" }));

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

describe("sealed secrets", () => {
  it("round-trips, differs from the plaintext, and refuses a tampered cipher", () => {
    const secret = newSecret();
    const sealed = sealSecret("webhook", secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret("webhook", sealed)).toBe(secret);
    const raw = Buffer.from(sealed.slice(3), "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => openSecret("webhook", `v1:${raw.toString("base64")}`)).toThrow();
  });

  it("seals each purpose under its own key: a webhook secret does not open as a push secret, nor back", () => {
    const secret = newSecret();
    expect(() => openSecret("websubPush", sealSecret("webhook", secret))).toThrow();
    expect(() => openSecret("webhook", sealSecret("websubPush", secret))).toThrow();
    expect(openSecret("websubPush", sealSecret("websubPush", secret))).toBe(secret);
  });

  it("opens what was sealed before purposes had keys of their own (the webhook key is unchanged)", () => {
    const iv = Buffer.alloc(12, 7);
    const key = createHash("sha256")
      .update("verbatim webhook secrets\0")
      .update("unit-test-auth-secret-unit-test-auth-secret")
      .digest();
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update("whsec_old", "utf8"), cipher.final()]);
    const sealed = `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    expect(openSecret("webhook", sealed)).toBe("whsec_old");
  });
});
