// The Redis the tests share counts in (lib/http/rate-limits-redis.int.test.ts, the scale-out fault test):
// the one at REDIS_TEST_URL (default: local 6379) when it answers, as on CI; else a throwaway redis-server
// on a free port, deleted when the run ends: the system's when it is on PATH, else the one redis-memory-server
// (npm) builds from Redis's source into its cache on first use (that needs make and a C compiler; no npm
// package ships a Redis binary). The global setups export the URL as REDIS_TEST_URL to the test workers.
import { spawn, spawnSync } from "node:child_process";
import net from "node:net";

import { freePort } from "./free-port";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

export interface TestRedis {
  url: string;
  /** Set when this process started the server: stops it. */
  stop?: () => Promise<void>;
}

/** Whether a Redis answers PING at `url` (one raw RESP round trip, no client library needed). */
export function redisAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || "127.0.0.1", port: Number(port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(/^\+PONG|^-NOAUTH/.test(data.toString())));
  });
}

async function waitUntilAnswers(url: string, exited: () => string | null): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await redisAnswers(url, 500)) return;
    const exit = exited();
    if (exit !== null) throw new Error(exit);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`redis-server did not answer at ${url}`);
}

/** redis-server from PATH on `port`, in memory only. */
async function startSystemRedis(port: number): Promise<TestRedis> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let exit: string | null = null;
  child.once("exit", (code, signal) => (exit = `redis-server exited (${code ?? signal}): ${stderr}`));
  const url = `redis://127.0.0.1:${port}`;
  await waitUntilAnswers(url, () => exit);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Redis built by redis-memory-server (cached under node_modules/.cache after the first build). */
async function startBuiltRedis(port: number): Promise<TestRedis> {
  const { RedisMemoryServer } = await import("redis-memory-server");
  const server = await RedisMemoryServer.create({
    instance: { ip: "127.0.0.1", port, args: ["--save", "", "--appendonly", "no"] },
  });
  return { url: `redis://127.0.0.1:${await server.getPort()}`, stop: async () => void (await server.stop()) };
}

/** The Redis for this run: the configured one when it answers, else one started here. */
export async function ensureTestRedis(log: (line: string) => void = console.log): Promise<TestRedis> {
  const configured = process.env.REDIS_TEST_URL || DEFAULT_REDIS_URL;
  if (await redisAnswers(configured)) return { url: configured };
  const port = await freePort();
  const started = Date.now();
  const onPath = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
  let server: TestRedis;
  try {
    server = onPath ? await startSystemRedis(port) : await startBuiltRedis(port);
  } catch (error) {
    throw new Error(
      `No Redis answers at ${configured}, and none could be started (${onPath ? "redis-server on PATH" : "redis-memory-server, which builds Redis with make and a C compiler"}): ${String(error)}. Install redis-server (apt-get install redis-server) or set REDIS_TEST_URL to a running one.`,
      { cause: error },
    );
  }
  log(
    `[test] no Redis at ${configured}: started ${onPath ? "redis-server from PATH" : "redis-memory-server"} on ${server.url} in ${Date.now() - started} ms`,
  );
  return server;
}

/**
 * For a global setup: ensureTestRedis, its URL exported as REDIS_TEST_URL. When no Redis can be had, the
 * reason goes to REDIS_TEST_UNAVAILABLE instead, and only the tests that need Redis fail with it
 * (requireTestRedis), not the whole run.
 */
export async function provideTestRedis(): Promise<TestRedis | Record<string, never>> {
  try {
    const redis = await ensureTestRedis();
    process.env.REDIS_TEST_URL = redis.url;
    return redis;
  } catch (error) {
    process.env.REDIS_TEST_UNAVAILABLE = (error as Error).message;
    return {};
  }
}

/** The URL a global setup provided; throws why there is none. */
export function requireTestRedis(): string {
  if (process.env.REDIS_TEST_UNAVAILABLE) throw new Error(process.env.REDIS_TEST_UNAVAILABLE);
  return process.env.REDIS_TEST_URL || DEFAULT_REDIS_URL;
}
