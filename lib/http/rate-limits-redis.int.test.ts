import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { RATE_LIMITS, RateLimits, rateLimits } from "@/lib/http/rate-limits";
import { requireTestRedis } from "@/test/redis-server";

// Two app processes, as far as the limiter can tell: two RateLimits, each with its own Redis connection,
// on the Redis the global setup found or started (REDIS_TEST_URL, test/redis-server.ts), under a key prefix
// of this run only.

const url = requireTestRedis();
const prefix = `verbatim-test:${randomBytes(6).toString("hex")}`;
const clients = [new Redis(url), new Redis(url)];

afterAll(async () => {
  const keys = await clients[0].keys(`${prefix}:*`);
  if (keys.length > 0) await clients[0].del(...keys);
  await Promise.all(clients.map((client) => client.quit()));
});

describe("RateLimits in Redis", () => {
  it("two instances share one count per key", async () => {
    const [first, second] = clients.map((redis) => new RateLimits({ redis, keyPrefix: prefix }));
    const points = RATE_LIMITS.magicLinkEmail.points;
    const remaining: string[] = [];
    for (let i = 0; i < points; i++) {
      const headers = await (i % 2 === 0 ? first : second).consume("magicLinkEmail", "email:shared");
      remaining.push(headers["RateLimit-Remaining"]);
    }
    expect(remaining).toEqual(Array.from({ length: points }, (_, i) => String(points - 1 - i)));
    for (const instance of [first, second]) {
      const refused = await instance.consume("magicLinkEmail", "email:shared").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(429);
      expect(Number((refused as ApiError).headers["Retry-After"])).toBeGreaterThan(0);
    }
    // The count is in Redis, under this run's prefix, and expires with the window.
    const keys = await clients[0].keys(`${prefix}:*`);
    expect(keys).toEqual([`${prefix}:magicLinkEmail:free:email:shared`]);
    expect(Number(await clients[0].get(keys[0]))).toBe(points + 2);
    expect(await clients[0].ttl(keys[0])).toBeGreaterThan(0);
    // Another key is counted apart.
    await expect(second.consume("magicLinkEmail", "email:other")).resolves.toMatchObject({
      "RateLimit-Remaining": String(points - 1),
    });
  });
});

describe("the app's limits", () => {
  it("are kept in Redis when REDIS_URL is set", async () => {
    process.env.REDIS_URL = url;
    const key = `user:${prefix}`; // unique to this run
    const app = await rateLimits();
    // The connection opens in the background; until it is ready the in-process fallback counts.
    await expect
      .poll(async () => {
        await app.consume("account", key);
        return clients[0].exists(`verbatim:rl:account:free:${key}`);
      })
      .toBe(1);
    await clients[0].del(`verbatim:rl:account:free:${key}`);
  });
});
