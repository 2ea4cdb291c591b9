// What logs and metrics cost per request: GET /health and a cached POST /v1/transcript on PostgreSQL,
// with every request logged (LOG_LEVEL=info, written to a file) and metrics on (METRICS_TOKEN set,
// scraped every second), against LOG_LEVEL=error (no request lines; metrics are always observed) and,
// with BENCH_BASELINE_DIR=<a built checkout of the commit before logs and metrics>, against that build.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { createApiKey, requestsPerSecond, startApp } from "./server";

const METRICS_TOKEN = "bench-metrics-token-0123456789";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Variant {
  label: string;
  env: Record<string, string>;
  cwd?: string;
  scrape: boolean;
}

export async function benchObservability(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const logDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-logs-"));
  const variants: Variant[] = [
    { label: "logs (info) + metrics", env: { LOG_LEVEL: "info", METRICS_TOKEN }, scrape: true },
    { label: "logs (error) + metrics", env: { LOG_LEVEL: "error", METRICS_TOKEN }, scrape: true },
  ];
  const baseline = process.env.BENCH_BASELINE_DIR;
  if (baseline) variants.push({ label: "baseline build", env: {}, cwd: path.resolve(baseline), scrape: false });
  const figures: Record<string, number> = {};
  try {
    for (const variant of variants) {
      const database = await createMigratedTestDatabase();
      const logFile = path.join(logDir, `${variant.label.replace(/\W+/g, "-")}.log`);
      const app = await startApp(
        await freePort(),
        {
          DATABASE_URL: database.url,
          AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
          AUTH_DEV_LOGIN: "true",
          YOUTUBE_BASE_URL: fake.url,
          OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
          ...variant.env,
        },
        variant.cwd,
        logFile,
      );
      const scraper = variant.scrape
        ? setInterval(() => void fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.arrayBuffer(), () => undefined), 1000)
        : undefined;
      try {
        const key = await createApiKey(app.baseUrl);
        const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, format: "json" });
        const first = await fetch(`${app.baseUrl}/v1/transcript`, { method: "POST", headers, body });
        if (first.status !== 200) throw new Error(`first transcript request failed: ${first.status} ${await first.text()}`);
        await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
        const before = statSync(logFile).size;
        const health = await requestsPerSecond(`${app.baseUrl}/health`);
        const cached = await requestsPerSecond(`${app.baseUrl}/v1/transcript`, headers, 10, { method: "POST", body });
        figures[`${variant.label}: GET /health req/s`] = health;
        figures[`${variant.label}: POST /v1/transcript (cached) req/s`] = cached;
        figures[`${variant.label}: log bytes per request`] = (statSync(logFile).size - before) / ((health + cached) * 10);
      } finally {
        if (scraper) clearInterval(scraper);
        await app.stop();
        await database.drop();
      }
    }
  } finally {
    await fake.close();
    rmSync(logDir, { recursive: true, force: true });
  }
  return figures;
}
