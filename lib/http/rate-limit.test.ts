import { describe, expect, it } from "vitest";
import { createRateLimiter } from "@/lib/http/rate-limit";
import { ApiError } from "@/lib/http/errors";

describe("createRateLimiter", () => {
  it("allows `limit` requests per window and key, then 429 with Retry-After until the window ends", () => {
    const limiter = createRateLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) limiter.check("1.2.3.4", t0 + i);
    let error: unknown;
    try {
      limiter.check("1.2.3.4", t0 + 15_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).headers["Retry-After"]).toBe("45");
    expect(() => limiter.check("5.6.7.8", t0 + 15_000)).not.toThrow();
    expect(() => limiter.check("1.2.3.4", t0 + 60_000)).not.toThrow();
  });
});
