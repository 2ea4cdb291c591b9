import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";

describe("GET /v1/languages", () => {
  it("is public, validates url, and rate-limits each client address with 429 and Retry-After (behind one proxy)", async () => {
    process.env.LANGUAGES_RATE_PER_MINUTE = "5";
    process.env.TRUSTED_PROXY_HOPS = "1";
    const { GET } = await import("@/app/v1/languages/route");
    // Our proxy appends the address it saw; what the client wrote to the left of it is ignored.
    const from = (ip: string) => ({ headers: { "x-forwarded-for": `${Math.random()}, ${ip}` } });

    // The limit counts every request, invalid ones included: 1 + 3 + 1 = 5 allowed, the 6th refused.
    const missing = await callRoute(GET, "/v1/languages", from("203.0.113.1"));
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({
      detail: [{ type: "missing", loc: ["query", "url"], msg: "Field required", input: null }],
    });

    for (let i = 0; i < 3; i++) {
      const res = await callRoute(GET, "/v1/languages?url=https://example.com/not-a-video", from("203.0.113.1"));
      expect(res.status).toBe(422);
    }
    expect((await callRoute(GET, "/v1/languages?url=https://example.com/x", from("203.0.113.1"))).status).toBe(422);
    const limited = await callRoute(GET, "/v1/languages?url=https://example.com/not-a-video", from("203.0.113.1"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.json).toMatchObject({ code: "rate_limited" });
    expect(limited.headers.get("ratelimit-limit")).toBe("5");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");

    const otherClient = await callRoute(GET, "/v1/languages?url=https://example.com/not-a-video", from("198.51.100.7"));
    expect(otherClient.status).toBe(422);
  });
});
