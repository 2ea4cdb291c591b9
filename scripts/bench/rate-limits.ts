// Figures for the hardening issue: what the rate limiter costs. Cached POST /v1/transcript and
// GET /v1/me/api-key (API key) against GET /health, on PostgreSQL, with the limiter off
// (RATE_LIMIT_MULTIPLIER=0: withApi skips it) and on (every request counted, limits scaled up so none
// is refused). The two alternate over three rounds (off-on, on-off, off-on), so drift on a shared machine
// hits both alike. Target: the limiter costs at most 5 % (ratios to /health, on against off). Also the
// limiter's own time per request, in-process, for scale against the time a request takes.
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { RateLimits } from "../../lib/http/rate-limits";
import { createApiKey, requestsPerSecond, startApp } from "./server";

/** Microseconds per counted request (RateLimiterMemory + headers), averaged over 200,000. */
async function consumeMicroseconds(): Promise<number> {
  const limits = new RateLimits({ multiplier: 1_000_000 });
  for (let i = 0; i < 20_000; i++) await limits.consume("account", "user:bench");
  const started = performance.now();
  for (let i = 0; i < 200_000; i++) await limits.consume("account", "user:bench");
  return ((performance.now() - started) * 1000) / 200_000;
}

interface Run {
  health: number;
  apiKey: number;
  transcript: number;
}

export async function benchRateLimits(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const runs: Record<"off" | "on", Run[]> = { off: [], on: [] };
  try {
    for (let round = 0; round < 3; round++) {
      for (const mode of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
        const app = await startApp(3190, {
          DATABASE_URL: database.url,
          AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
          AUTH_DEV_LOGIN: "true",
          YOUTUBE_BASE_URL: fake.url,
          OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
          RATE_LIMIT_MULTIPLIER: mode === "off" ? "0" : "1000000",
        });
        try {
          const key = await createApiKey(app.baseUrl, `bench-rl-${mode}-${round}-${Date.now()}@example.test`);
          const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
          const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, format: "json" });
          const first = await fetch(`${app.baseUrl}/v1/transcript`, { method: "POST", headers, body });
          if (first.status !== 200) throw new Error(`first transcript request failed: ${first.status} ${await first.text()}`);
          const limited = first.headers.has("ratelimit-limit");
          if (limited !== (mode === "on")) throw new Error(`limiter ${mode} but RateLimit-Limit ${limited ? "present" : "absent"}`);
          await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
          await requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, 2, { method: "POST", body });
          runs[mode].push({
            health: await requestsPerSecond(`${app.baseUrl}/health`),
            apiKey: await requestsPerSecond(`${app.baseUrl}/v1/me/api-key`, { authorization: `Bearer ${key}` }),
            transcript: await requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, 10, { method: "POST", body }),
          });
        } finally {
          await app.stop();
        }
      }
    }
  } finally {
    await database.drop();
    await fake.close();
  }
  const mean = (mode: "off" | "on", field: keyof Run) => runs[mode].reduce((sum, run) => sum + run[field], 0) / runs[mode].length;
  const ratio = (mode: "off" | "on", field: "apiKey" | "transcript") => mean(mode, field) / mean(mode, "health");
  return {
    "limiter alone, in-process: µs per counted request": await consumeMicroseconds(),
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
    "limiter cost, api-key, % (ratio on vs off)": (1 - ratio("on", "apiKey") / ratio("off", "apiKey")) * 100,
    "limiter cost, cached transcript, % (ratio on vs off)": (1 - ratio("on", "transcript") / ratio("off", "transcript")) * 100,
  };
}
