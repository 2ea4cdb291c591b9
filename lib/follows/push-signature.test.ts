import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { validSignature } from "@/lib/follows/push-callback";
import { wantsSubscribe } from "@/lib/follows/push-subscribe";

const body = Buffer.from("<feed><entry><id>yt:video:abc</id></entry></feed>");
const secret = "s3cret";
const sign = (algorithm: string, key = secret, bytes: Uint8Array = body) =>
  `${algorithm}=${createHmac(algorithm, key).update(bytes).digest("hex")}`;

describe("X-Hub-Signature", () => {
  it("accepts the HMAC of the raw body with the follow's secret, in each of the spec's algorithms", () => {
    for (const algorithm of ["sha1", "sha256", "sha384", "sha512"])
      expect(validSignature(sign(algorithm), body, secret), algorithm).toBe(true);
    expect(validSignature(sign("sha256").toUpperCase().replace("SHA256", "sha256"), body, secret)).toBe(true);
  });

  it("refuses another secret, another body, a truncated or missing signature, and other algorithms", () => {
    expect(validSignature(sign("sha256", "other"), body, secret)).toBe(false);
    expect(validSignature(sign("sha256", secret, Buffer.from("<feed/>")), body, secret)).toBe(false);
    expect(validSignature(sign("sha256").slice(0, -2), body, secret)).toBe(false);
    expect(validSignature(null, body, secret)).toBe(false);
    expect(validSignature("", body, secret)).toBe(false);
    expect(validSignature(sign("md5"), body, secret)).toBe(false);
    expect(validSignature(`sha256=${"zz".repeat(32)}`, body, secret)).toBe(false);
  });
});

describe("when a check subscribes", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const at = (ms: number) => new Date(now + ms);
  const base = { state: "active", pushHub: "https://hub.example/", pushLeaseEndsAt: null, pushRequestedAt: null };
  it("subscribes when not yet, renews within two hours of the lease's end, asks again after silence or failure", () => {
    expect(wantsSubscribe({ ...base, pushState: "off" }, now)).toBe(true);
    expect(wantsSubscribe({ ...base, pushState: "active", pushLeaseEndsAt: at(3 * 3600_000) }, now)).toBe(false);
    expect(wantsSubscribe({ ...base, pushState: "active", pushLeaseEndsAt: at(3600_000) }, now)).toBe(true);
    expect(wantsSubscribe({ ...base, pushState: "pending", pushRequestedAt: at(-60_000) }, now)).toBe(false);
    expect(wantsSubscribe({ ...base, pushState: "pending", pushRequestedAt: at(-2 * 3600_000) }, now)).toBe(true);
    expect(wantsSubscribe({ ...base, pushState: "failed", pushRequestedAt: at(-3600_000) }, now)).toBe(false);
    expect(wantsSubscribe({ ...base, pushState: "failed", pushRequestedAt: at(-25 * 3600_000) }, now)).toBe(true);
    expect(wantsSubscribe({ ...base, state: "paused", pushState: "off" }, now)).toBe(false);
    expect(wantsSubscribe({ ...base, pushHub: null, pushState: null }, now)).toBe(false);
  });
});
