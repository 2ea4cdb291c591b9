import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { RATE_LIMITS, RateLimits, rateLimits, withRateLimitHeaders } from "@/lib/http/rate-limits";

const ioredis = vi.hoisted(() => ({ loaded: false }));
vi.mock("ioredis", () => {
  ioredis.loaded = true;
  return {};
});

async function refusal(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a 429");
}

describe("RateLimits (in-process)", () => {
  it("counts per key, answers RateLimit-* headers, then 429 in the contract's shape with Retry-After", async () => {
    const limits = new RateLimits();
    const { points, seconds } = RATE_LIMITS.apiKeyRegenerate;
    for (let i = 1; i <= points; i++) {
      const headers = await limits.consume("apiKeyRegenerate", "user:a");
      expect(headers).toMatchObject({
        "RateLimit-Limit": String(points),
        "RateLimit-Remaining": String(points - i),
        "RateLimit-Policy": `${points};w=${seconds}`,
      });
      expect(Number(headers["RateLimit-Reset"])).toBeGreaterThan(0);
      expect(Number(headers["RateLimit-Reset"])).toBeLessThanOrEqual(seconds);
    }
    const error = await refusal(() => limits.consume("apiKeyRegenerate", "user:a"));
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limited");
    expect(error.detail).toMatch(/^Too many requests\. Try again in \d+ s\.$/);
    expect(error.headers["RateLimit-Remaining"]).toBe("0");
    expect(Number(error.headers["Retry-After"])).toBeGreaterThan(0);
    expect(Number(error.headers["Retry-After"])).toBeLessThanOrEqual(seconds);
    // Another key, and another row for the same key, have counts of their own.
    await expect(limits.consume("apiKeyRegenerate", "user:b")).resolves.toMatchObject({
      "RateLimit-Remaining": String(points - 1),
    });
    await expect(limits.consume("account", "user:a")).resolves.toMatchObject({
      "RateLimit-Limit": String(RATE_LIMITS.account.points),
    });
  });

  it("a row that counts work takes each request's cost: saves by the tokens they index", async () => {
    // EDIT_SAVE_TOKENS_PER_MINUTE at its default, 300,000.
    const limits = new RateLimits();
    await expect(limits.consume("editSaveCost", "user:a", "free", 100_000)).resolves.toMatchObject({
      "RateLimit-Remaining": "200000",
    });
    await expect(limits.consume("editSaveCost", "user:a", "free", 150_000)).resolves.toMatchObject({
      "RateLimit-Remaining": "50000",
    });
    // 50,000 left: a save that would index 60,000 tokens waits, while another user's is not counted with it.
    const error = await refusal(() => limits.consume("editSaveCost", "user:a", "free", 60_000));
    expect(error.status).toBe(429);
    expect(Number(error.headers["Retry-After"])).toBeGreaterThan(0);
    await expect(limits.consume("editSaveCost", "user:b", "free", 60_000)).resolves.toMatchObject({
      "RateLimit-Remaining": "240000",
    });
  });

  it("a cost past the whole row uses the whole window rather than being refused for good", async () => {
    const limits = new RateLimits({ multiplier: 0.001 });
    await expect(limits.consume("editSaveCost", "user:a", "free", 100_000)).resolves.toMatchObject({
      "RateLimit-Remaining": "0",
    });
    expect((await refusal(() => limits.consume("editSaveCost", "user:a", "free", 1))).status).toBe(429);
  });

  it("per-tier rows give each tier its own limit", async () => {
    const limits = new RateLimits();
    for (const tier of ["free", "pro", "ultra"] as const) {
      const headers = await limits.consume("transcript", `user:${tier}`, tier);
      expect(headers["RateLimit-Limit"]).toBe(String(RATE_LIMITS.transcript.points[tier]));
    }
    expect(RATE_LIMITS.transcript.points.free).toBeLessThan(RATE_LIMITS.transcript.points.pro);
    expect(RATE_LIMITS.transcript.points.pro).toBeLessThan(RATE_LIMITS.transcript.points.ultra);
  });

  it("a multiplier scales every limit, and 0 turns limiting off", async () => {
    const doubled = new RateLimits({ multiplier: 2 });
    expect((await doubled.consume("magicLinkEmail", "email:x"))["RateLimit-Limit"]).toBe(
      String(2 * RATE_LIMITS.magicLinkEmail.points),
    );
    const off = new RateLimits({ multiplier: 0 });
    for (let i = 0; i < RATE_LIMITS.magicLinkEmail.points * 3; i++)
      await expect(off.consume("magicLinkEmail", "email:x")).resolves.toEqual({});
  });

  it("copies the headers onto an answer", () => {
    const response = withRateLimitHeaders(new Response("x"), { "RateLimit-Limit": "5" });
    expect(response.headers.get("ratelimit-limit")).toBe("5");
    expect(withRateLimitHeaders(Response.redirect("http://localhost/"), { "RateLimit-Limit": "5" }).status).toBe(302);
  });
});

describe("the app's limits", () => {
  it("count in process memory without loading a Redis client when REDIS_URL is not set", async () => {
    vi.stubEnv("REDIS_URL", undefined);
    const limits = await rateLimits();
    await expect(limits.consume("account", "user:in-process")).resolves.toMatchObject({
      "RateLimit-Limit": String(RATE_LIMITS.account.points),
    });
    expect(ioredis.loaded).toBe(false);
    vi.unstubAllEnvs();
  });
});
