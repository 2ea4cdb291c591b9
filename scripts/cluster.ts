// `npm run cluster`: the production process list on one machine (what docker-compose.yml describes), as the
// scale-out and fault tests run it: N app processes (`next start`, built first), one `npm run worker`, and
// a round-robin balancer in front of the apps on one port.
//
//   npm run build && DATABASE_URL=… AUTH_SECRET=… REDIS_URL=… npm run cluster -- [--apps 2] [--port 3000] [--no-worker]
//
// Settings come from the environment and are the same for every process: DATABASE_URL (PostgreSQL: the
// queue, the cache and the coalescing of caption fetches), AUTH_SECRET (sessions, signed upload URLs),
// REDIS_URL (shared rate limits), DATA_DIR on storage every process sees or S3_* (uploads), APP_URL (the
// balancer's address). The apps listen on port+1…port+N; the balancer adds X-Forwarded-For, so apps get
// TRUSTED_PROXY_HOPS=1. The balancer is test and demo plumbing: in production use your platform's.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** Settings for the processes (only these: nothing is inherited unless passed). */
export type ProcEnv = Record<string, string | undefined>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LOG_KEEP_CHARS = 64 * 1024;

export interface Proc {
  name: string;
  pid: number;
  child: ChildProcess;
  /** The last 64 KiB of its output, for a failing test's message. */
  logs(): string;
  exited: Promise<void>;
  /** SIGTERM, then waits for the exit (graceful: jobs are handed back). */
  stop(): Promise<void>;
  /** SIGKILL, then waits for the exit: no clean-up of any kind, as in a crash or an OOM kill. */
  crash(): Promise<void>;
}

function spawnProc(name: string, args: string[], env: ProcEnv, echo: boolean): Proc {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    if (echo) process.stdout.write(text.replace(/^(?=.)/gm, `${name} | `));
    log = (log + text).slice(-LOG_KEEP_CHARS);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return {
    name,
    pid: child.pid!,
    child,
    logs: () => log,
    exited,
    stop: () => signal("SIGTERM"),
    crash: () => signal("SIGKILL"),
  };
}

async function waitFor(proc: Proc, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${proc.name} exited before it was ready:\n${proc.logs()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready after ${timeoutMs} ms:\n${proc.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// How many words the default embedder distils, and whether search by meaning's second stage reads the passages, are
// this process's choice too (the test runner's: none and off; each process started would otherwise spend a minute
// of a core distilling on its first start, and read every passage with USE lite in a thread), unless `env` says.
const INHERITED = ["SEARCH_DISTILLED_WORDS", "SEARCH_SECOND_STAGE"] as const;
const baseEnv = (env: ProcEnv): ProcEnv => ({
  NEXT_TELEMETRY_DISABLED: "1",
  ...Object.fromEntries(INHERITED.filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
  ...env,
});

/** One app process (`next start` of the built app); resolves once /health answers 200. */
export async function startApp(
  name: string,
  port: number,
  env: ProcEnv,
  echo = false,
): Promise<Proc & { url: string }> {
  const proc = spawnProc(
    name,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    baseEnv(env),
    echo,
  );
  const url = `http://127.0.0.1:${port}`;
  // Each poll on a connection of its own: a kept-alive one left idle here could be closed by the app (after its 5 s)
  // just as the caller's first request goes out on it (ECONNRESET), when a loaded machine delays either timer.
  await waitFor(proc, async () => (await fetch(`${url}/health`, { headers: { connection: "close" } })).status === 200);
  return { ...proc, url };
}

/** `npm run worker` (scripts/worker.ts under tsx); resolves once it runs. */
export async function startWorker(name: string, env: ProcEnv, echo = false): Promise<Proc> {
  const proc = spawnProc(name, ["node_modules/tsx/dist/cli.mjs", "scripts/worker.ts"], baseEnv(env), echo);
  await waitFor(proc, async () => proc.logs().includes("worker running as"));
  return proc;
}

// Headers that describe one connection, not the message (RFC 9110 §7.6.1): each side of the balancer has its own.
// Transfer-Encoding stays: the body is streamed as it came, and Node frames it by that header.
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"];

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !named.includes(name)),
  );
}

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * Round robin over `targets` (http://host:port), streaming bodies both ways and appending the peer to
 * X-Forwarded-For. No health checks: a target that does not answer gives that request a 502 (a GET or HEAD that
 * met a kept-alive connection as the app closed it is sent once more first).
 */
export async function startBalancer(port: number, targets: string[]): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let turn = 0;
  const server = http.createServer((req, res) => {
    const target = new URL(targets[turn++ % targets.length]!);
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    // A kept-alive connection the app closes as a request is sent on it resets: a request without a body is sent
    // again once on a new one, as Node's documentation advises (request.reusedSocket); a body is not replayed.
    const replayable = req.method === "GET" || req.method === "HEAD";
    const send = (retried: boolean) => {
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...endToEnd(req.headers), "x-forwarded-for": forwarded },
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
          answer.pipe(res);
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (res.headersSent) return void res.destroy();
        if (replayable && !retried && upstream.reusedSocket && error.code === "ECONNRESET") return send(true);
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: "The app process behind the balancer did not answer.", code: "bad_gateway" }));
      });
      if (replayable) upstream.end();
      else req.pipe(upstream);
    };
    send(false);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Cluster {
  url: string;
  apps: Array<Proc & { url: string }>;
  worker: Proc | null;
  balancer: Balancer;
  stop(): Promise<void>;
}

/** The balancer on `port` (0: any free port), apps on the given ports, and a worker; all with `env`. */
export async function startCluster(options: {
  appPorts: number[];
  port: number;
  env: ProcEnv;
  worker?: boolean;
  echo?: boolean;
}): Promise<Cluster> {
  const env = { TRUSTED_PROXY_HOPS: "1", ...options.env };
  const apps = await Promise.all(options.appPorts.map((p, i) => startApp(`app${i + 1}`, p, env, options.echo)));
  const worker = options.worker === false ? null : await startWorker("worker", env, options.echo);
  const balancer = await startBalancer(
    options.port,
    apps.map((a) => a.url),
  );
  return {
    url: balancer.url,
    apps,
    worker,
    balancer,
    async stop() {
      await balancer.close();
      await Promise.all([...apps, ...(worker ? [worker] : [])].map((p) => p.stop()));
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      apps: { type: "string", default: "2" },
      port: { type: "string", default: "3000" },
      "no-worker": { type: "boolean" },
    },
  });
  const port = Number(values.port);
  const count = Number(values.apps);
  if (!process.env.DATABASE_URL)
    throw new Error(
      "DATABASE_URL is not set: several processes need one PostgreSQL (the embedded PGlite is one process's)",
    );
  const cluster = await startCluster({
    appPorts: Array.from({ length: count }, (_, i) => port + 1 + i),
    port,
    env: { APP_URL: `http://127.0.0.1:${port}`, ...process.env },
    worker: !values["no-worker"],
    echo: true,
  });
  console.log(`cluster: ${count} app process(es)${cluster.worker ? " + worker" : ""} behind ${cluster.url}`);
  const stop = () => void cluster.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
