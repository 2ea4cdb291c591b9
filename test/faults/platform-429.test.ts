import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { recordFault } from "./report";

// A platform rate-limits us: the YouTube fake answers every /player call with its recorded 429 page. The
// lookup backs off through its clients and retries (a bounded number of calls, within its time budget),
// then answers a clear 503 upstream_rate_limited with Retry-After; nothing is charged or put in history.
// When the platform answers again, so do we.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let youtube: FakeYoutube;
let route: typeof import("@/app/v1/transcript/route").POST;

beforeAll(async () => {
  youtube = await startFakeYoutube();
  Object.assign(process.env, {
    YOUTUBE_BASE_URL: youtube.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
  route = (await import("@/app/v1/transcript/route")).POST;
});

afterAll(async () => {
  await youtube?.close();
  await ctx?.teardown();
});

describe("a platform answers 429", () => {
  it("bounded retries, then 503 upstream_rate_limited with Retry-After, nothing charged; then it recovers", async () => {
    const caller = await createCaller(ctx.db);
    const id = FAKE_IDS.captioned;
    youtube.scenarios.set(id, { "*": "429" });
    const playerCalls = () => youtube.requests.filter((r) => r.path.endsWith("/player") && r.body.includes(id)).length;
    const body = { url: `https://www.youtube.com/watch?v=${id}` };

    const refused = await callRoute(route, "/v1/transcript", { headers: caller.headers, body });
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ detail: expect.stringMatching(/rate-limiting/), code: "upstream_rate_limited" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const calls = playerCalls();
    expect(calls).toBeGreaterThan(1); // it did retry
    expect(calls).toBeLessThanOrEqual(10); // and gave up
    // History lists the failed request with its reason, uncharged.
    expect(
      await ctx.db.transcription.findMany({
        where: { userId: caller.userId },
        select: { state: true, errorCode: true, durationSeconds: true },
      }),
    ).toEqual([{ state: "error", errorCode: "upstream_rate_limited", durationSeconds: 0 }]);
    expect(
      await ctx.db.usagePeriod.aggregate({ where: { userId: caller.userId }, _sum: { usedSeconds: true } }),
    ).toMatchObject({ _sum: { usedSeconds: null } });

    youtube.scenarios.delete(id);
    const cleared = Date.now();
    const ok = await callRoute(route, "/v1/transcript", { headers: caller.headers, body });
    expect(ok.status).toBe(200);
    recordFault({
      scenario: "platform 429",
      injected: "YouTube answers 429 to every /player call",
      lost: 0,
      recoverySeconds: (Date.now() - cleared) / 1000,
      note: `${calls} calls, then 503 upstream_rate_limited, Retry-After ${refused.headers.get("retry-after")} s; not charged`,
    });
  });
});
