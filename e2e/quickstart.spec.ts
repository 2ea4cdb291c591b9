import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";
import { freePort } from "../test/free-port";

// README's Quickstart, as written there, in a fresh clone of this repository's HEAD (committed files only):
// install, build and start on the embedded defaults, then /health. npm's cache (filled by the project's own
// install) keeps the install short. Then README's test command's suites, in the same clone: their setups
// start PostgreSQL and Redis, speak and make certificates with what npm brought (a few test files of each
// kind, not the whole `npm test`). Both on a PATH without the services a machine may lack.

/** What a machine with Node alone does not have; none of it may be needed. */
const NOT_INSTALLED =
  /^(redis-.*|espeak(-ng)?|openssl|python[0-9.]*|pip[0-9.]*|yt-dlp|postgres|psql|pg_.*|initdb|mount)$/;

/** A PATH with every command of this one but NOT_INSTALLED's: a folder of links to them. */
function pathWithoutServices(dirs: readonly string[], into: string): string {
  mkdirSync(into);
  const linked = new Set<string>();
  for (const dir of dirs) {
    const names = existsSync(dir) ? readdirSync(dir) : [];
    for (const name of names.filter((n) => !NOT_INSTALLED.test(n) && !linked.has(n))) {
      symlinkSync(path.join(dir, name), path.join(into, name));
      linked.add(name);
    }
  }
  return into;
}

/** The suites' test files run in the clone: Redis and speech, a full disk, certificates, speech without espeak-ng on PATH. */
const SUITE_SAMPLES = [
  [
    "vitest",
    "run",
    "--config",
    "vitest.integration.config.ts",
    "lib/http/rate-limits-redis.int.test.ts",
    "lib/uploads/uploads.int.test.ts",
  ],
  ["vitest", "run", "--config", "vitest.faults.config.ts", "test/faults/disk-full.test.ts"],
  ["vitest", "run", "test/fakes/proxy/server.test.ts", "test/speech.test.ts"],
];

const root = path.resolve(import.meta.dirname, "..");

/** The first `sh` block of README's Quickstart section. */
function quickstartCommand(readme: string): string {
  const section = readme.split(/^## /m).find((part) => part.startsWith("Quickstart\n"));
  const block = section?.match(/```sh\n([\s\S]*?)\n```/);
  if (!block) throw new Error("README.md has no ```sh block under ## Quickstart");
  return block[1].trim();
}

test("README's first command works in a fresh clone", async () => {
  test.setTimeout(20 * 60_000);
  const command = quickstartCommand(readFileSync(path.join(root, "README.md"), "utf8"));
  expect(command).toContain("npm start");

  const dir = mkdtempSync(path.join(tmpdir(), "verbatim-quickstart-"));
  // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter the clone.
  chmodSync(dir, 0o755);
  const clone = path.join(dir, "verbatim");
  execFileSync("git", ["clone", "--quiet", root, clone], { stdio: "pipe" });

  const port = await freePort();
  // A machine's environment, not this test run's: no npm_* or E2E_* variables, no settings of the app, none
  // of this checkout's node_modules/.bin on PATH (the clone must bring its own), and none of the services
  // (the postinstall says that yt-dlp needs python3, and goes on).
  const systemPath = (process.env.PATH ?? "/usr/bin:/bin")
    .split(path.delimiter)
    .filter((dir) => !/node_modules|node-gyp-bin|\.venv/.test(dir));
  const systemRedis = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  const env = {
    PATH: pathWithoutServices(systemPath, path.join(dir, "bin")),
    HOME: process.env.HOME ?? dir,
    LANG: process.env.LANG ?? "C.UTF-8",
    ...(process.env.CI ? { CI: process.env.CI } : {}),
    NEXT_TELEMETRY_DISABLED: "1",
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    PORT: String(port),
  };
  // Its own process group, so the whole tree (sh → npm → next) stops with it.
  const child = spawn("sh", ["-c", command], {
    cwd: clone,
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));

  try {
    let health: { status: number; body: unknown } | undefined;
    while (!health && exited === undefined) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        health = { status: response.status, body: await response.json() };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    expect(health, `\`${command}\` ended (exit ${exited}) before /health answered:\n${log}`).toBeDefined();
    expect(health!.status, log).toBe(200);
    expect(health!.body).toMatchObject({ status: "ok", database: "ok", database_kind: "pglite" });
    // The embedded defaults put their data in the clone, nowhere else.
    expect(existsSync(path.join(clone, "data"))).toBe(true);
  } finally {
    if (exited === undefined) {
      const stopped = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (exited === undefined) process.kill(-child.pid!, "SIGKILL");
    }
  }

  try {
    // README's second command's suites, on the same PATH: nothing answers at the default PostgreSQL and Redis
    // addresses (both pointed at a closed port), so their global setups start their own. Redis comes from
    // redis-memory-server, given this machine's binary by path when it has one (else it builds one).
    const closed = await freePort();
    // PORT was README's first command's; a test run has none (the app's default APP_URL follows it).
    const suiteEnv = {
      ...Object.fromEntries(Object.entries(env).filter(([name]) => name !== "PORT")),
      TEST_DATABASE_ADMIN_URL: `postgres://postgres@127.0.0.1:${closed}/postgres`,
      REDIS_TEST_URL: `redis://127.0.0.1:${closed}`,
      ...(systemRedis ? { REDISMS_SYSTEM_BINARY: systemRedis } : {}),
    };
    for (const args of SUITE_SAMPLES) {
      const run = spawnSync("npx", ["--no-install", ...args], {
        cwd: clone,
        env: suiteEnv as unknown as NodeJS.ProcessEnv,
        encoding: "utf8",
        timeout: 5 * 60_000,
      });
      // Without its colour codes: vitest colours its summary when it thinks it can ("Tests" ESC[22m ESC[1m "15 passed").
      const output = `${run.stdout}${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, "");
      expect(run.status, `npx ${args.join(" ")}:\n${output.slice(-20_000)}`).toBe(0);
      expect(output).toMatch(/Tests\s+\d+ passed/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
