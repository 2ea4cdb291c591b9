import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { webhookHeaders } from "@/lib/webhooks/sign";
import { generateWebhookSecret } from "@/lib/webhooks/signing-secret";
import { retryDelayMs } from "@/lib/webhooks/backoff";

describe("Standard Webhooks signing", () => {
  it("signs id.timestamp.body with HMAC-SHA256 under the base64-decoded whsec_ key, as the spec says", () => {
    const secret = generateWebhookSecret();
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    const body = JSON.stringify({
      type: "transcript.completed",
      timestamp: "2026-11-23T12:00:00.000Z",
      data: { job_id: "j1" },
    });
    const at = new Date("2026-11-23T12:00:00Z");
    const headers = webhookHeaders(secret, "msg_abc", at, body);
    expect(headers["webhook-id"]).toBe("msg_abc");
    expect(headers["webhook-timestamp"]).toBe(String(at.getTime() / 1000));
    const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`msg_abc.${headers["webhook-timestamp"]}.${body}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("verifies with the reference library, and fails with another secret or a changed body", () => {
    const secret = generateWebhookSecret();
    const body = '{"type":"webhook.test"}';
    const headers = webhookHeaders(secret, "msg_1", new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: "webhook.test" });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace("test", "tost"), headers)).toThrow();
  });
});

describe("during a rotation", () => {
  it("carries one signature per secret: either secret verifies, another does not", () => {
    const [next, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"type":"webhook.test"}';
    const headers = webhookHeaders([next, previous], "msg_2", new Date(), body);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toEqual({ type: "webhook.test" });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ type: "webhook.test" });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe("retry schedule", () => {
  it("grows ×3 from WEBHOOK_RETRY_BASE_MS, capped at 6 h, jittered ±20 %, about a day over the default 12 attempts", () => {
    const mid = () => 0.5;
    expect([1, 2, 3].map((n) => retryDelayMs(n, mid))).toEqual([10_000, 30_000, 90_000]);
    expect(retryDelayMs(20, mid)).toBe(6 * 3600_000);
    expect(retryDelayMs(1, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, () => 1)).toBe(12_000);
    const total = Array.from({ length: 11 }, (_, i) => retryDelayMs(i + 1, mid)).reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeGreaterThan(20);
    expect(total / 3600_000).toBeLessThan(36);
  });
});
