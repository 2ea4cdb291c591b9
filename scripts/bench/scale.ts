// Scale-out figure: cached POST /v1/transcript req/s from one app process against two behind
// scripts/cluster.ts's balancer, and against the same two hit directly (the balancer's own cost left out),
// all on one PostgreSQL with rate limits counted in Redis (limits scaled up so none refuses). Short runs
// alternate between the setups (order swapped each round) so load from elsewhere hits all alike. On this
// 2-core machine the load generator, the balancer and the apps share the cores: read the ratio with that.
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { freePort } from "../../test/free-port";
import { startApp, startBalancer, type Balancer, type Proc } from "../cluster";
import { createApiKey } from "./server";

const ROUNDS = 4;
const SECONDS = 5;
const CONNECTIONS = 20;

async function rps(urls: string[], headers: Record<string, string>, body: string): Promise<number> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({ url, connections: CONNECTIONS / urls.length, duration: SECONDS, method: "POST", headers, body }),
    ),
  );
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  return results.reduce((sum, r) => sum + r.requests.average, 0);
}

export async function benchScale(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-scale-"));
  const procs: Proc[] = [];
  let balancer: Balancer | undefined;
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      AUTH_DEV_LOGIN: "true",
      DATA_DIR: dataDir,
      REDIS_URL: process.env.REDIS_TEST_URL || "redis://127.0.0.1:6379",
      RATE_LIMIT_MULTIPLIER: "1000000",
      TRUSTED_PROXY_HOPS: "1",
      YOUTUBE_BASE_URL: fake.url,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    };
    const apps = [await startApp("app1", await freePort(), env), await startApp("app2", await freePort(), env)];
    procs.push(...apps);
    balancer = await startBalancer(
      await freePort(),
      apps.map((a) => a.url),
    );
    const key = await createApiKey(apps[0]!.url, `bench-scale-${Date.now()}@example.test`);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, format: "json" });
    const first = await fetch(`${apps[0]!.url}/v1/transcript`, { method: "POST", headers, body });
    if (first.status !== 200) throw new Error(`first transcript request failed: ${first.status} ${await first.text()}`);
    const setups = {
      one: [`${apps[0]!.url}/v1/transcript`],
      balanced: [`${balancer.url}/v1/transcript`],
      direct: apps.map((a) => `${a.url}/v1/transcript`),
    };
    const names = Object.keys(setups) as Array<keyof typeof setups>;
    for (const name of names) await rps(setups[name], headers, body); // warm-up
    const sums = { one: 0, balanced: 0, direct: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse())
        sums[name] += await rps(setups[name], headers, body);
    }
    const mean = (name: keyof typeof sums) => sums[name] / ROUNDS;
    return {
      "one app process: cached POST /v1/transcript req/s": mean("one"),
      "two app processes behind the balancer: req/s": mean("balanced"),
      "two app processes hit directly: req/s": mean("direct"),
      "two (balanced) / one": mean("balanced") / mean("one"),
      "two (direct) / one": mean("direct") / mean("one"),
      "cores on this machine": os.cpus().length,
    };
  } finally {
    await balancer?.close();
    await Promise.all(procs.map((p) => p.stop()));
    await database.drop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
