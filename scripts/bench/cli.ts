// The `verbatim` CLI: wall time of a whole `verbatim get` of a cached transcript (process start to
// exit, as a person or a script sees it: Node's start, the bundle's load, the HTTP round trip, the output),
// against the built app on PostgreSQL with the YouTube fake; `verbatim --version` for the start-up alone;
// and the size of the bundled file.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildCli } from "../../test/cli";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createMigratedTestDatabase } from "../../test/pg";
import { createApiKey, startApp } from "./server";

const RUNS = 30;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const run = promisify(execFile);

/** Wall times of `runs` runs, one after another. Asynchronous: the YouTube fake answers from this process. */
async function timedRuns(
  cli: string,
  args: string[],
  env: Record<string, string | undefined>,
  runs = RUNS,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run(process.execPath, [cli, ...args], { env: env as NodeJS.ProcessEnv, maxBuffer: 16 * 1024 * 1024 });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function benchCli(): Promise<Record<string, number>> {
  const cli = buildCli();
  const fake = await startFakeYoutube();
  const database = await createMigratedTestDatabase();
  const config = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-cli-"));
  const app = await startApp(3320, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    YOUTUBE_BASE_URL: fake.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CONFIG_HOME: config,
      VERBATIM_BASE_URL: app.baseUrl,
      VERBATIM_API_KEY: await createApiKey(app.baseUrl),
    };
    const get = ["get", `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`];
    await timedRuns(cli, get, env, 3); // the first copy, from the fake; then a warm server
    const upstreamBefore = fake.requests.length;
    const cached = await timedRuns(cli, get, env);
    const json = await timedRuns(cli, [...get, "--format", "json", "--json"], env);
    const version = await timedRuns(cli, ["--version"], env);
    return {
      [`verbatim get (cached) wall time p50, ms (${RUNS} runs)`]: percentile(cached, 50),
      "verbatim get (cached) wall time p95, ms": percentile(cached, 95),
      "verbatim get --format json --json (cached) p50, ms": percentile(json, 50),
      "verbatim --version (start-up only) p50, ms": percentile(version, 50),
      "upstream requests during the cached runs": fake.requests.length - upstreamBefore,
      "bundled CLI (cli/dist/verbatim.mjs), KiB": statSync(cli).size / 1024,
    };
  } finally {
    await app.stop();
    await database.drop();
    await fake.close();
    rmSync(config, { recursive: true, force: true });
  }
}
