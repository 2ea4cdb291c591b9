// /mcp tool-call latency for a cached transcript: the built app on PostgreSQL, the first copy
// fetched from the YouTube fake, then get_transcript calls through the official SDK's client over Streamable
// HTTP (one connection, calls one after another): p50 / p95 over 200 calls, against POST /v1/transcript
// (the same cached transcript over REST) for comparison.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { createApiKey, startApp } from "./server";

const CALLS = 200;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function timed(n: number, call: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function benchMcp(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const app = await startApp(3210, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    YOUTUBE_BASE_URL: fake.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  const client = new Client({ name: "verbatim-bench", version: "1.0.0" });
  try {
    const key = await createApiKey(app.baseUrl);
    const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const call = async () => {
      const result = await client.callTool({ name: "get_transcript", arguments: { url } });
      if (result.isError) throw new Error(`get_transcript failed: ${JSON.stringify(result.content)}`);
    };
    await call(); // the first copy, from the fake
    const upstreamBefore = fake.requests.length;
    await timed(20, call); // warm-up
    const mcp = await timed(CALLS, call);
    const rest = await timed(CALLS, async () => {
      const response = await fetch(`${app.baseUrl}/v1/transcript`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ url }),
      });
      if (response.status !== 200) throw new Error(`POST /v1/transcript: ${response.status}`);
      await response.arrayBuffer();
    });
    return {
      [`/mcp get_transcript (cached) p50, ms (${CALLS} calls)`]: percentile(mcp, 50),
      "/mcp get_transcript (cached) p95, ms": percentile(mcp, 95),
      "POST /v1/transcript (cached) p50, ms, same transcript": percentile(rest, 50),
      "POST /v1/transcript (cached) p95, ms": percentile(rest, 95),
      "upstream requests during the cached calls": fake.requests.length - upstreamBefore,
    };
  } finally {
    await client.close().catch(() => undefined);
    await app.stop();
    await database.drop();
    await fake.close();
  }
}
