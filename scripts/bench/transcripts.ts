// POST /v1/transcript answered from the cache against GET /health on the same server (the target:
// ratio ≥ 0.6). The app runs on PostgreSQL and fetches the first copy from the YouTube fake.
import autocannon from "autocannon";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { againstHealth, createApiKey, requestsPerSecond, startApp } from "./server";

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
    const {
      health,
      rps: cached,
      ratio,
    } = await againstHealth(app.baseUrl, (seconds) =>
      requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, seconds, { method: "POST", body }),
    );
    // The floor under it: the same call with the same key, refused at validation (authenticated, counted,
    // body read and parsed; no transcript looked up or rendered). What the cached call costs beyond this
    // is the lookup and the answer.
    const refused = await autocannon({
      url: `${app.baseUrl}/v1/transcript`,
      connections: 10,
      duration: 10,
      headers,
      method: "POST",
      body: JSON.stringify({ url: 5 }),
    });
    if (refused["4xx"] !== refused.requests.total || refused.errors > 0)
      throw new Error("the invalid transcript request was not refused with a 4xx every time");
    return {
      "PostgreSQL: GET /health req/s": health,
      "PostgreSQL: POST /v1/transcript (cached) req/s": cached,
      "cached transcript / health ratio (goal ≥ 0.9)": ratio,
      "PostgreSQL: POST /v1/transcript refused at validation req/s": refused.requests.average,
      "refused at validation / health ratio (the floor for an authenticated POST)": refused.requests.average / health,
      "upstream requests during the cached run": fake.requests.length - upstreamBefore,
    };
  } finally {
    await app.stop();
    await database.drop();
    await fake.close();
  }
}
