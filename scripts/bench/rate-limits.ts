// What the rate limiter costs. Cached POST /v1/transcript and
// GET /v1/me/api-key (API key) against GET /health, on PostgreSQL, through two copies of the built app
// running side by side: limiter off (RATE_LIMIT_MULTIPLIER=0: withApi skips it) and on (every request
// counted, limits scaled up so none is refused). Short runs alternate between the two (order swapped each
// round), so load from elsewhere on a shared machine hits both alike. Target: the limiter costs at most
// 5 % (ratios to /health, on against off). Also the limiter's own time per request, in-process.
// With BENCH_BASELINE_DIR=<a built checkout of older code>, that code runs as a third app in the rotation
// ("base"), so the change can be compared with what came before under the same load.
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { RateLimits } from "../../lib/http/rate-limits";
import { createApiKey, requestsPerSecond, startApp, type RunningApp } from "./server";

const ROUNDS = 6;
const SECONDS = 3;

/** Microseconds per counted request (RateLimiterMemory + headers), averaged over 200,000. */
async function consumeMicroseconds(): Promise<number> {
  const limits = new RateLimits({ multiplier: 1_000_000 });
  for (let i = 0; i < 20_000; i++) await limits.consume("account", "user:bench");
  const started = performance.now();
  for (let i = 0; i < 200_000; i++) await limits.consume("account", "user:bench");
  return ((performance.now() - started) * 1000) / 200_000;
}

type Mode = "off" | "on" | "base";
type Target = "health" | "apiKey" | "transcript";

export async function benchRateLimits(): Promise<Record<string, number>> {
  const micro = await consumeMicroseconds();
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const apps: Partial<Record<Mode, RunningApp>> = {};
  try {
    const common = {
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      AUTH_DEV_LOGIN: "true",
      YOUTUBE_BASE_URL: fake.url,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    };
    apps.off = await startApp(3190, { ...common, RATE_LIMIT_MULTIPLIER: "0" });
    apps.on = await startApp(3191, { ...common, RATE_LIMIT_MULTIPLIER: "1000000" });
    const baselineDir = process.env.BENCH_BASELINE_DIR;
    if (baselineDir) apps.base = await startApp(3192, common, baselineDir);
    const modes = Object.keys(apps) as Mode[];
    const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, format: "json" });
    const requests: Record<Mode, Record<Target, () => Promise<number>>> = {} as never;
    for (const mode of modes) {
      const app = apps[mode]!;
      const key = await createApiKey(app.baseUrl, `bench-rl-${mode}-${Date.now()}@example.test`);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const first = await fetch(`${app.baseUrl}/v1/transcript`, { method: "POST", headers, body });
      if (first.status !== 200)
        throw new Error(`first transcript request failed: ${first.status} ${await first.text()}`);
      if (mode !== "base" && first.headers.has("ratelimit-limit") !== (mode === "on"))
        throw new Error(`limiter ${mode}, but RateLimit-Limit says otherwise`);
      requests[mode] = {
        health: () => requestsPerSecond(`${app.baseUrl}/health`, {}, SECONDS),
        apiKey: () => requestsPerSecond(`${app.baseUrl}/v1/me/api-key`, { authorization: `Bearer ${key}` }, SECONDS),
        transcript: () => requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, SECONDS, { method: "POST", body }),
      };
      for (const target of ["health", "transcript"] as const) await requests[mode][target](); // warm-up
    }
    const sums = Object.fromEntries(modes.map((mode) => [mode, { health: 0, apiKey: 0, transcript: 0 }])) as Record<
      Mode,
      Record<Target, number>
    >;
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of ["health", "apiKey", "transcript"] as const) {
        for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
          sums[mode][target] += await requests[mode][target]();
        }
      }
    }
    const mean = (mode: Mode, target: Target) => sums[mode][target] / ROUNDS;
    const ratio = (mode: Mode, target: "apiKey" | "transcript") => mean(mode, target) / mean(mode, "health");
    const baseline: Record<string, number> = apps.base
      ? {
          "original code: GET /health req/s": mean("base", "health"),
          "original code: GET /v1/me/api-key req/s": mean("base", "apiKey"),
          "original code: POST /v1/transcript (cached) req/s": mean("base", "transcript"),
          "api-key / health, original code": ratio("base", "apiKey"),
          "cached transcript / health, original code": ratio("base", "transcript"),
          "this branch vs original, api-key, % (req/s)": (1 - mean("on", "apiKey") / mean("base", "apiKey")) * 100,
          "this branch vs original, cached transcript, % (req/s)":
            (1 - mean("on", "transcript") / mean("base", "transcript")) * 100,
        }
      : {};
    return {
      "limiter alone, in-process: µs per counted request": micro,
      "limiter off: GET /health req/s": mean("off", "health"),
      "limiter off: GET /v1/me/api-key req/s": mean("off", "apiKey"),
      "limiter off: POST /v1/transcript (cached) req/s": mean("off", "transcript"),
      "limiter on: GET /health req/s": mean("on", "health"),
      "limiter on: GET /v1/me/api-key req/s": mean("on", "apiKey"),
      "limiter on: POST /v1/transcript (cached) req/s": mean("on", "transcript"),
      "api-key / health, off": ratio("off", "apiKey"),
      "api-key / health, on": ratio("on", "apiKey"),
      "cached transcript / health, off": ratio("off", "transcript"),
      "cached transcript / health, on": ratio("on", "transcript"),
      "limiter cost, api-key, % (req/s on vs off)": (1 - mean("on", "apiKey") / mean("off", "apiKey")) * 100,
      "limiter cost, cached transcript, % (req/s on vs off)":
        (1 - mean("on", "transcript") / mean("off", "transcript")) * 100,
      ...baseline,
    };
  } finally {
    await Promise.all(Object.values(apps).map((app) => app.stop()));
    await database.drop();
    await fake.close();
  }
}
