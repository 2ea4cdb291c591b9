import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { sealSecret } from "@/lib/auth/secret-box";
import { captureLogs } from "@/test/capture-logs";
import { validSignature } from "@/lib/follows/push-callback";
import {
  callbackProblem,
  callbackToken,
  newPushToken,
  openPushSecret,
  storedToken,
  wantsSubscribe,
} from "@/lib/follows/push-subscribe";

vi.mock("@/lib/auth/secret", () => ({ authSecret: () => "unit-test-auth-secret-unit-test-auth-secret" }));

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

describe("the push secret", () => {
  it("opens when sealed for push; a cipher that does not open (another key) is logged and verifies nothing", () => {
    expect(openPushSecret({ id: "f1", pushSecretCipher: sealSecret("websubPush", secret) })).toBe(secret);
    expect(openPushSecret({ id: "f1", pushSecretCipher: null })).toBeNull();
    const logs = captureLogs("warn");
    try {
      expect(openPushSecret({ id: "f2", pushSecretCipher: sealSecret("webhook", secret) })).toBeNull();
      expect(openPushSecret({ id: "f3", pushSecretCipher: "v1:AAAA" })).toBeNull();
    } finally {
      logs.restore();
    }
    expect(logs.lines.map((l) => [l.followId, l.msg])).toEqual([
      ["f2", "follow push: the push secret cannot be opened (AUTH_SECRET changed?)"],
      ["f3", "follow push: the push secret cannot be opened (AUTH_SECRET changed?)"],
    ]);
  });
});

describe("the callback a hub is given", () => {
  it("ends in a token of 32 random bytes (base64url), a new one each time", () => {
    const tokens = Array.from({ length: 50 }, newPushToken);
    expect(new Set(tokens).size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
    }
  });

  it("names its stored token with the token's MAC: only this server's MAC names it back", () => {
    const token = newPushToken();
    const callback = callbackToken(token);
    expect(callback).toMatch(new RegExp(`^${token}\\.[A-Za-z0-9_-]{43}$`));
    expect(storedToken(callback)).toBe(token);
    expect(storedToken(token)).toBeNull();
    expect(storedToken(`${token}.`)).toBeNull();
    expect(storedToken(`${token}.${"A".repeat(43)}`)).toBeNull();
    expect(storedToken(`${newPushToken()}.${callback.split(".")[1]}`)).toBeNull();
    expect(storedToken(`.${callback.split(".")[1]}`)).toBeNull();
  });

  it("is not given from a loopback or private APP_URL, unless FOLLOW_PUSH_PRIVATE_CALLBACK allows it", () => {
    const off = { FOLLOW_PUSH_PRIVATE_CALLBACK: false };
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3000", "http://10.0.0.5", "http://[::1]:3000"])
      expect(callbackProblem({ ...off, APP_URL: url }), url).toMatch(/^Polled only: APP_URL .* not reachable/);
    expect(callbackProblem({ ...off, APP_URL: "https://verbatim.example" })).toBeNull();
    expect(callbackProblem({ FOLLOW_PUSH_PRIVATE_CALLBACK: true, APP_URL: "http://127.0.0.1:3000" })).toBeNull();
  });
});
