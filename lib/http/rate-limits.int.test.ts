import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { RATE_LIMITS } from "@/lib/http/rate-limits";

// The limits as the routes apply them, on the default settings: TRUSTED_PROXY_HOPS=0, in-process counts.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.teardown());

let n = 0;
/** A new, never seen client address each call. */
const freshAddress = () => ({
  "x-forwarded-for": `198.51.${Math.floor(++n / 250)}.${n % 250}`,
  "x-real-ip": `203.0.113.${n % 250}`,
});

describe("rate limits on the routes", () => {
  it("35 anonymous requests, each with a fresh X-Forwarded-For, run into the per-address limit (no trusted proxy)", async () => {
    const { GET } = await import("@/app/v1/languages/route");
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof callRoute>> | undefined;
    for (let i = 0; i < 35; i++) {
      const res = await callRoute(GET, "/v1/languages?url=https://example.com/not-a-video", {
        headers: freshAddress(),
      });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.filter((s) => s === 422)).toHaveLength(30); // LANGUAGES_RATE_PER_MINUTE's default
    expect(statuses.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
    expect(limited!.json).toEqual({ detail: expect.stringMatching(/^Too many requests/), code: "rate_limited" });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited!.headers.get("ratelimit-limit")).toBe("30");
    expect(limited!.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("public reads answer with RateLimit-* headers", async () => {
    const { GET } = await import("@/app/v1/plans/route");
    const res = await callRoute(GET, "/v1/plans");
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe(String(RATE_LIMITS.publicRead.points));
    expect(Number(res.headers.get("ratelimit-remaining"))).toBe(RATE_LIMITS.publicRead.points - 1);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  });

  it("authenticated routes count per user and tier: one user's 429 is not another's, whatever address they send", async () => {
    const { POST } = await import("@/app/v1/transcript/route");
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    const [alice, bob] = [await createUser(database.db), await createUser(database.db)];
    const aliceKey = (await ensureApiKey(alice.id)).key!;
    const bobKey = (await ensureApiKey(bob.id)).key!;
    const free = RATE_LIMITS.transcript.points.free;
    // Invalid bodies (422) count too: the limit is checked before the input is parsed.
    for (let i = 0; i < free; i++) {
      const res = await callRoute(POST, "/v1/transcript", {
        body: {},
        headers: { ...bearer(aliceKey), ...freshAddress() },
      });
      expect(res.status).toBe(422);
    }
    const limited = await callRoute(POST, "/v1/transcript", {
      body: {},
      headers: { ...bearer(aliceKey), ...freshAddress() },
    });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: "rate_limited" });
    expect(limited.headers.get("ratelimit-limit")).toBe(String(free));
    expect((await callRoute(POST, "/v1/transcript", { body: {}, headers: bearer(bobKey) })).status).toBe(422);

    // A paid tier has a bigger allowance of requests (the tier is looked up, then cached for a minute).
    const carol = await createUser(database.db);
    await database.db.subscription.create({ data: { userId: carol.id, tier: "ultra" } });
    const carolKey = (await ensureApiKey(carol.id)).key!;
    const { GET } = await import("@/app/v1/me/transcriptions/route");
    expect(
      (await callRoute(GET, "/v1/me/transcriptions", { headers: bearer(carolKey) })).headers.get("ratelimit-limit"),
    ).toBe(String(RATE_LIMITS.account.points));
    const ultra = await callRoute(POST, "/v1/transcript", { body: {}, headers: bearer(carolKey) });
    expect(ultra.status).toBe(422);
    expect(ultra.headers.get("ratelimit-limit")).toBe(String(RATE_LIMITS.transcript.points.ultra));
  });

  it("key regeneration is limited per user", async () => {
    const { POST } = await import("@/app/v1/me/api-key/regenerate/route");
    const user = await createUser(database.db);
    let key = (await (await import("@/lib/auth/api-keys")).ensureApiKey(user.id)).key!;
    for (let i = 0; i < RATE_LIMITS.apiKeyRegenerate.points; i++) {
      const res = await callRoute(POST, "/v1/me/api-key/regenerate", { method: "POST", headers: bearer(key) });
      expect(res.status).toBe(200);
      key = (res.json as { key: string }).key;
    }
    const limited = await callRoute(POST, "/v1/me/api-key/regenerate", { method: "POST", headers: bearer(key) });
    expect(limited.status).toBe(429);
  });
});
