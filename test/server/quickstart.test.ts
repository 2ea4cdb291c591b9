import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../free-port";

// README's two commands on a machine that has none of the services CI's machine has (PostgreSQL, Redis,
// espeak-ng, python3 on PATH): what CI's own clean clone cannot show. By default against this checkout's build
// and node_modules (CI's run is already a clean clone with `npm ci` and one build); VERBATIM_TEST_FRESH_CLONE=1
// adds README's first command word for word in a fresh clone (a second install and build: minutes).

/** What a machine with Node alone does not have; none of it may be needed. */
const NOT_INSTALLED =
  /^(redis-.*|espeak(-ng)?|openssl|python[0-9.]*|pip[0-9.]*|yt-dlp|postgres|psql|pg_.*|initdb|mount)$/;

const root = path.resolve(import.meta.dirname, "..", "..");

/** A PATH with every command of this one but NOT_INSTALLED's: a folder of links to them. */
function pathWithoutServices(into: string): string {
  // None of this checkout's node_modules/.bin either: the app and the suites must find their own tools. Node.js
  // itself stays, wherever it is (CI's Node 22 is a package under .ci/.node/node_modules, .ci/node.sh).
  const dirs = (process.env.PATH ?? "/usr/bin:/bin")
    .split(path.delimiter)
    .filter((dir) => !/node_modules[\\/]\.bin|node-gyp-bin|\.venv/.test(dir));
  mkdirSync(into, { recursive: true });
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

/** A machine's environment, not this test run's: no npm_*, VITEST* or app settings, and no services on PATH. */
function machineEnv(dir: string): Record<string, string> {
  return {
    PATH: pathWithoutServices(path.join(dir, "bin")),
    HOME: process.env.HOME ?? dir,
    LANG: process.env.LANG ?? "C.UTF-8",
    ...(process.env.CI ? { CI: process.env.CI } : {}),
    // The test run's choices (npm test: none and off), or the app spends a minute of a core distilling on its first
    // start and reads its passages with USE lite in a thread.
    ...(process.env.SEARCH_DISTILLED_WORDS ? { SEARCH_DISTILLED_WORDS: process.env.SEARCH_DISTILLED_WORDS } : {}),
    ...(process.env.SEARCH_SECOND_STAGE ? { SEARCH_SECOND_STAGE: process.env.SEARCH_SECOND_STAGE } : {}),
    NEXT_TELEMETRY_DISABLED: "1",
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
}

/** The first `sh` block of README's Quickstart section. */
function quickstartCommand(): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Quickstart\n"));
  const block = section?.match(/```sh\n([\s\S]*?)\n```/);
  if (!block) throw new Error("README.md has no ```sh block under ## Quickstart");
  return block[1].trim();
}

/**
 * Runs `command` (its own process group, so sh → npm → next stop with it) until /health answers on `port`, checks
 * the answer, and stops it.
 */
async function startAndCheckHealth(command: string[], cwd: string, env: Record<string, string>, port: number) {
  const child = spawn(command[0], command.slice(1), {
    cwd,
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
    // "busy": the embedded database did not answer the probe within its 100 ms while the first start's own work
    // (its sweep, the background embedding) had it. Answered, and asked again, as a monitor would.
    const busyUntil = Date.now() + 60_000;
    while (exited === undefined) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        health = { status: response.status, body: await response.json() };
        if ((health.body as { database?: string }).database !== "busy" || Date.now() > busyUntil) break;
      } catch {
        // not answering yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(health, `\`${command.join(" ")}\` ended (exit ${exited}) before /health answered:\n${log}`).toBeDefined();
    expect(health!.status, log).toBe(200);
    expect(health!.body, log).toMatchObject({ status: "ok", database: "ok", database_kind: "pglite" });
  } finally {
    if (exited === undefined) {
      const stopped = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (exited === undefined) process.kill(-child.pid!, "SIGKILL");
    }
  }
}

/** The suites' test files run on that PATH: Redis and speech, a full disk, certificates, speech without espeak-ng. */
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

/**
 * README's second command's suites: nothing answers at the default PostgreSQL and Redis addresses (both pointed
 * at a closed port), so their global setups start their own. Redis comes from redis-memory-server, given this
 * machine's binary by path when it has one (else it builds one).
 */
async function runSuiteSamples(cwd: string, env: Record<string, string>) {
  const closed = await freePort();
  const systemRedis = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  const suiteEnv = {
    ...env,
    TEST_DATABASE_ADMIN_URL: `postgres://postgres@127.0.0.1:${closed}/postgres`,
    REDIS_TEST_URL: `redis://127.0.0.1:${closed}`,
    ...(systemRedis ? { REDISMS_SYSTEM_BINARY: systemRedis } : {}),
  };
  for (const args of SUITE_SAMPLES) {
    const run = spawnSync(path.join(cwd, "node_modules", ".bin", args[0]), args.slice(1), {
      cwd,
      env: suiteEnv as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 5 * 60_000,
    });
    // Without its colour codes: vitest colours its summary when it thinks it can ("Tests" ESC[22m ESC[1m "15 passed").
    const output = `${run.stdout}${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, "");
    expect(run.status, `${args.join(" ")}:\n${output.slice(-20_000)}`).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }
}

describe("README's commands on a machine with Node alone", () => {
  it("the built app starts with no settings at all and none of the services, and answers /health on PGlite", async () => {
    expect(quickstartCommand()).toContain("npm start");
    const dir = mkdtempSync(path.join(tmpdir(), "verbatim-quickstart-"));
    try {
      const port = await freePort();
      await startAndCheckHealth(
        // What `npm start` runs: the start's checks, then the embedded database's thread and Next.js together.
        [process.execPath, "scripts/start.mjs", "start", "-p", String(port), "-H", "127.0.0.1"],
        root,
        machineEnv(dir),
        port,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("the test command's suites start their own PostgreSQL and Redis and speak without espeak-ng", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "verbatim-suites-"));
    try {
      await runSuiteSamples(root, machineEnv(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it.runIf(process.env.VERBATIM_TEST_FRESH_CLONE === "1")(
    "README's first command, word for word, in a fresh clone of HEAD: install, build, start",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "verbatim-fresh-clone-"));
      // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter the clone.
      chmodSync(dir, 0o755);
      const clone = path.join(dir, "verbatim");
      try {
        execFileSync("git", ["clone", "--quiet", root, clone], { stdio: "pipe" });
        const port = await freePort();
        await startAndCheckHealth(
          ["sh", "-c", quickstartCommand()],
          clone,
          { ...machineEnv(dir), PORT: String(port) },
          port,
        );
        // The embedded defaults put their data in the clone, nowhere else.
        expect(existsSync(path.join(clone, "data"))).toBe(true);
        await runSuiteSamples(clone, machineEnv(path.join(dir, "suites")));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    20 * 60_000,
  );
});
