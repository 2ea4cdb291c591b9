import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SERVER_LOGS_DIR } from "./secrets";

// The apps e2e and the server suite run against, defined once: `next start` of the one build (`.next`) with
// different settings, and the YouTube and speech-recognition fakes they use. `npm test` starts the set once for
// both suites (`tsx test/apps.ts e2e`, which stays up until it is stopped; the suites then find the names of those up
// in VERBATIM_TEST_APPS_UP); each suite starts the ones it needs that are not up (the server suite its fuzz and limits
// apps, which only it uses), and run alone, all it needs (playwright.config.ts, test/server/global-setup.ts).
//
//   port      app      embedded defaults with the fakes, rate limits ×10: e2e's specs and the server suite's
//   port+2    youtube  the InnerTube + timedtext fake with its hand-made fixtures
//   port+3    asr      an OpenAI-compatible fake that hears every upload as the same two sentences, each answer
//                      held back a second so the job is seen running
//   port+6    billing  billing on, against a fake Stripe on port+7 that e2e/billing.spec.ts starts itself (so it
//                      can drive Stripe's side: failed payments, the period end)
//   port+8    fuzz     real rate limits, for test/server/fuzz.test.ts alone: a thousand hostile requests from
//                      127.0.0.1 would use up the per-address limits the others meet
//   port+9    limits   real rate limits, for test/server/public-page-limit.test.ts alone, which uses them up
//
// Specs that need an app of their own settings start it themselves (viewer on port+5, oidc on
// port+10 with its OpenID Connect provider on port+11).
// Each app has its own DATA_DIR under the run's temporary folder; its output goes to
// test-results/server-logs/app-<name>-<port>.log, which both suites search for leaked keys (test/secrets.ts).

export type AppName = "youtube" | "asr" | "app" | "billing" | "fuzz" | "limits";

export interface TestApp {
  name: AppName;
  port: number;
  origin: string;
  /** Arguments to node. */
  args: string[];
  env: Record<string, string>;
  /** A fake is ready when it listens, an app when /health answers 200. */
  ready: "listening" | "health";
  log: string;
}

/** What the specs read from the environment (e2e's workers inherit it from playwright.config.ts). */
export interface TestAppsSettings {
  E2E_RUN_ID: string;
  E2E_BILLING_ORIGIN: string;
  E2E_FAKE_STRIPE_PORT: string;
  E2E_STRIPE_WEBHOOK_SECRET: string;
  E2E_STRIPE_SECRET_KEY: string;
}

/** The names of the apps already up (a comma list), which a suite then does not start. */
export const TEST_APPS_UP = "VERBATIM_TEST_APPS_UP";

/** What each suite runs against. */
export const SUITE_APPS: Record<"e2e" | "server", readonly AppName[]> = {
  e2e: ["youtube", "asr", "app", "billing"],
  server: ["youtube", "asr", "app", "fuzz", "limits"],
};

/** The apps of `names` that TEST_APPS_UP does not name: those a suite starts itself. */
export function appsToStart(apps: TestApp[], names: readonly AppName[], env = process.env): TestApp[] {
  const up = new Set((env[TEST_APPS_UP] ?? "").split(","));
  return apps.filter((app) => names.includes(app.name) && !up.has(app.name));
}
const READY_TIMEOUT_MS = 120_000;

/** The set for a run on `E2E_PORT` (default 3123), named by E2E_RUN_ID (made up when unset). */
export function testApps(env: NodeJS.ProcessEnv = process.env): { apps: TestApp[]; settings: TestAppsSettings } {
  const port = Number(env.E2E_PORT ?? 3123);
  const runId = env.E2E_RUN_ID ?? Date.now().toString(36);
  const dataDir = path.join(os.tmpdir(), `verbatim-e2e-${runId}`);
  const origin = (p: number) => `http://127.0.0.1:${p}`;
  const settings: TestAppsSettings = {
    E2E_RUN_ID: runId,
    E2E_BILLING_ORIGIN: origin(port + 6),
    E2E_FAKE_STRIPE_PORT: String(port + 7),
    E2E_STRIPE_WEBHOOK_SECRET: "whsec_fake_e2e",
    E2E_STRIPE_SECRET_KEY: "sk_test_fake_verbatim",
  };
  const withFakes = {
    YOUTUBE_BASE_URL: origin(port + 2),
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    ASR_OPENAI_BASE_URL: origin(port + 3),
    // The fake recogniser's audio is not all speech: no voice-activity detection in the browser tests.
    ASR_VAD: "off",
    // Search by meaning with its first stage alone: reading every passage whole in the background would take a core
    // from the browser's round trips. The second stage has its own tests (lib/search/second-stage.int.test.ts).
    SEARCH_SECOND_STAGE: "off",
    // Notion at a port of this run's that nothing listens on: a Notion destination's deliveries fail at once, and the
    // dashboard's Exports page says why (e2e/exports.spec.ts). Its API is followed by lib/exports' integration tests.
    NOTION_API_URL: origin(port + 19),
  };
  const fake = (name: AppName, p: number, script: string, ...rest: string[]): TestApp => ({
    name,
    port: p,
    origin: origin(p),
    args: ["node_modules/tsx/dist/cli.mjs", script, String(p), ...rest],
    env: {},
    ready: "listening",
    log: path.join(SERVER_LOGS_DIR, `fake-${name}-${p}.log`),
  });
  const app = (name: AppName, p: number, appEnv: Record<string, string>): TestApp => ({
    name,
    port: p,
    origin: origin(p),
    args: ["node_modules/next/dist/bin/next", "start", "-p", String(p), "-H", "127.0.0.1"],
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: name === "app" ? dataDir : `${dataDir}-${name}`,
      APP_URL: origin(p),
      ...withFakes,
      ...appEnv,
    },
    ready: "health",
    log: path.join(SERVER_LOGS_DIR, `app-${name}-${p}.log`),
  });
  const apps = [
    fake("youtube", port + 2, "test/fakes/youtube/serve.ts"),
    fake("asr", port + 3, "test/fakes/openai-asr/serve.ts", "1000"),
    // Two workers sign in through it from one address: the per-address sign-in limit (60 in 10 minutes) is for
    // people, and no spec tests it here (the fuzz and limits apps keep the real limits). Billing is off here, so
    // it has no allowance unless one is set: the specs that show and use one up (the usage line, the cost
    // prompts, the CLI's exit 4) see an operator who set the contract's free 15 minutes.
    app("app", port, {
      RATE_LIMIT_MULTIPLIER: "10",
      FREE_ALLOWANCE_SECONDS: "900",
      // Folder destinations are made under it (e2e/exports.spec.ts).
      EXPORT_FOLDER_ROOT: `${dataDir}-exports`,
    }),
    // Stripe is first asked when a page needs it, after billing.spec.ts has started the fake.
    app("billing", port + 6, {
      STRIPE_SECRET_KEY: settings.E2E_STRIPE_SECRET_KEY,
      STRIPE_API_BASE: origin(port + 7),
      STRIPE_PRICE_PRO: "verbatim_pro",
      STRIPE_PRICE_ULTRA: "verbatim_ultra",
      STRIPE_WEBHOOK_SECRET: settings.E2E_STRIPE_WEBHOOK_SECRET,
    }),
    app("fuzz", port + 8, {}),
    app("limits", port + 9, {}),
  ];
  return { apps, settings };
}

interface Running {
  app: TestApp;
  child: ChildProcess;
}

/** The environment for the apps: this one's, less what a test runner set for its own tests. */
function inheritedEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env))
    if (key !== "NODE_ENV" && key !== "TEST" && !key.startsWith("VITEST")) env[key] = value;
  return env;
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

async function isReady(app: TestApp): Promise<boolean> {
  if (app.ready === "listening") return listening(app.port);
  return (await fetch(`${app.origin}/health`)).status === 200;
}

async function untilReady({ app, child }: Running): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${app.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(app.log)}`,
      );
    if (await isReady(app).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${app.name} not ready after ${READY_TIMEOUT_MS} ms:\n${tail(app.log)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM, and SIGKILL when it has not exited 10 s later. */
async function stopOne({ child }: Running): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `apps` side by side from `root` (the build must be there) and waits until each is ready; the returned
 * function stops them all and removes their data folders.
 */
export async function startTestApps(apps: TestApp[], root: string): Promise<() => Promise<void>> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID")))
    throw new Error("No build in .next: the apps run the built app (`npx next build` first).");
  mkdirSync(SERVER_LOGS_DIR, { recursive: true });
  const env = inheritedEnv();
  const running: Running[] = apps.map((app) => {
    rmSync(app.log, { force: true });
    const fd = openSync(app.log, "w");
    try {
      const child = spawn(process.execPath, app.args, {
        cwd: root,
        env: { ...env, ...app.env } as NodeJS.ProcessEnv,
        stdio: ["ignore", fd, fd],
      });
      return { app, child };
    } finally {
      closeSync(fd);
    }
  });
  const stop = async () => {
    await Promise.all(running.map(stopOne));
    for (const { app } of running) if (app.env.DATA_DIR) rmSync(app.env.DATA_DIR, { recursive: true, force: true });
  };
  try {
    await Promise.all(running.map(untilReady));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

// `tsx test/apps.ts [e2e|server]`: a suite's apps (else the whole set), until SIGTERM or SIGINT; "ready" on stdout
// once every one answers.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(import.meta.dirname, "..");
  const suite = process.argv[2] as keyof typeof SUITE_APPS | undefined;
  const { apps } = testApps();
  const stop = await startTestApps(suite ? apps.filter((app) => SUITE_APPS[suite].includes(app.name)) : apps, root);
  console.log("ready");
  const onSignal = () => void stop().then(() => process.exit(0));
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}
