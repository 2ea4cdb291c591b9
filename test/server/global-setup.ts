import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../free-port";
import { checkServerLogs, SERVER_LOGS_DIR } from "../secrets";

// What the server suite's files run against, started once for the run, side by side, from the one build (`.next`):
//
//   app      the built app on its embedded defaults with the fakes, its rate limits ×10 (as e2e's first app)
//   fuzz     the same with the real limits, for fuzz.test.ts alone: a thousand hostile requests from 127.0.0.1
//            use up per-address limits the other files would meet
//   limits   the same, for public-page-limit.test.ts alone, which uses up the public pages' per-address limit
//
// and the YouTube and speech-recognition fakes they all use. Each app has a DATA_DIR of its own in a temporary
// folder; its output goes to test-results/server-logs/server-<name>-<port>.log, searched at the end for leaked
// keys and tokens (test/secrets.ts). Files get the apps' origins through inject("appOrigin") and the like.

declare module "vitest" {
  export interface ProvidedContext {
    appOrigin: string;
    fuzzOrigin: string;
    limitsOrigin: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const READY_TIMEOUT_MS = 120_000;

type Env = Record<string, string | undefined>;

interface Started {
  name: string;
  child: ChildProcess;
  /** Where its output is, for the message when it does not start. */
  log: string;
}

/** The environment this process was given, less what vitest set for its own tests (NODE_ENV=test, VITEST*). */
function inheritedEnv(): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(process.env))
    if (key !== "NODE_ENV" && key !== "TEST" && !key.startsWith("VITEST")) env[key] = value;
  return env;
}

function start(name: string, args: string[], env: Env, log: string): Started {
  const fd = openSync(log, "w");
  try {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", fd, fd],
    });
    return { name, child, log };
  } finally {
    closeSync(fd);
  }
}

async function until(proc: Started, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const { exitCode, signalCode } = proc.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${proc.name} exited (${exitCode ?? signalCode}) before it was ready:\n${tail(proc.log)}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${proc.name} not ready after ${READY_TIMEOUT_MS} ms:\n${tail(proc.log)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8").slice(-4000) : "(no output)";
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** SIGTERM, and SIGKILL when it has not exited 10 s later. */
async function stop(proc: Started): Promise<void> {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    throw new Error("No build in .next: the server suite runs the built app (`npx next build` first).");
  mkdirSync(SERVER_LOGS_DIR, { recursive: true });
  // This suite's logs from an earlier run would be searched with this run's.
  for (const name of readdirSync(SERVER_LOGS_DIR))
    if (name.startsWith("server-")) rmSync(path.join(SERVER_LOGS_DIR, name), { force: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-server-"));
  const [youtubePort, asrPort, appPort, fuzzPort, limitsPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const env = inheritedEnv();
  const withFakes = {
    YOUTUBE_BASE_URL: `http://127.0.0.1:${youtubePort}`,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    ASR_OPENAI_BASE_URL: `http://127.0.0.1:${asrPort}`,
  };
  const started: Started[] = [];
  const tsx = (name: string, args: string[]) => {
    const proc = start(name, ["node_modules/tsx/dist/cli.mjs", ...args], env, path.join(dataDir, `${name}.log`));
    started.push(proc);
    return proc;
  };
  const app = async (name: string, port: number, settings: Record<string, string>) => {
    const origin = `http://127.0.0.1:${port}`;
    const proc = start(
      `app ${name}`,
      ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
      {
        ...env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: path.join(dataDir, name),
        APP_URL: origin,
        ...withFakes,
        ...settings,
      },
      path.join(SERVER_LOGS_DIR, `server-${name}-${port}.log`),
    );
    started.push(proc);
    await until(proc, async () => (await fetch(`${origin}/health`)).status === 200);
    return origin;
  };

  const teardown = async () => {
    await Promise.all(started.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // YouTube as the app sees it: the InnerTube + timedtext fake with its hand-made fixtures. Speech recognition:
    // an OpenAI-compatible fake that hears every upload as the same two sentences, each answer held back a second.
    const youtube = tsx("fake-youtube", ["test/fakes/youtube/serve.ts", String(youtubePort)]);
    const asr = tsx("fake-asr", ["test/fakes/openai-asr/serve.ts", String(asrPort), "1000"]);
    const [appOrigin, fuzzOrigin, limitsOrigin] = await Promise.all([
      app("app", appPort, { RATE_LIMIT_MULTIPLIER: "10" }),
      app("fuzz", fuzzPort, {}),
      app("limits", limitsPort, {}),
      until(youtube, () => listening(youtubePort)),
      until(asr, () => listening(asrPort)),
    ]);
    project.provide("appOrigin", appOrigin);
    project.provide("fuzzOrigin", fuzzOrigin);
    project.provide("limitsOrigin", limitsOrigin);
  } catch (error) {
    await teardown();
    throw error;
  }

  return async () => {
    await teardown();
    // After the apps have stopped (their logs are complete): no key or token this run was given, nothing
    // shaped like one, in any of them. vitest prints an error thrown here but still exits 0: hence the exit code.
    try {
      checkServerLogs({ logs: (name) => name.startsWith("server-") });
    } catch (error) {
      process.exitCode = 1;
      throw error;
    }
  };
}
