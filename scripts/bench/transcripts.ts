// POST /v1/transcript answered from the cache against GET /health on the same server (issue target:
// ratio ≥ 0.6). The app runs on PostgreSQL and fetches the first copy from the YouTube fake.
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { createApiKey, requestsPerSecond, startApp } from "./server";

export async function benchTranscripts(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const app = await startApp(3160, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    YOUTUBE_BASE_URL: fake.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  try {
    const key = await createApiKey(app.baseUrl);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, format: "json" });
    const first = await fetch(`${app.baseUrl}/v1/transcript`, { method: "POST", headers, body });
    if (first.status !== 200) throw new Error(`first transcript request failed: ${first.status} ${await first.text()}`);
    const upstreamBefore = fake.requests.length;
    await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
    const health = await requestsPerSecond(`${app.baseUrl}/health`);
    const cached = await requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, 10, { method: "POST", body });
    return {
      "PostgreSQL: GET /health req/s": health,
      "PostgreSQL: POST /v1/transcript (cached) req/s": cached,
      "cached transcript / health ratio (goal ≥ 0.9)": cached / health,
      "upstream requests during the cached run": fake.requests.length - upstreamBefore,
    };
  } finally {
    await app.stop();
    await database.drop();
    await fake.close();
  }
}
