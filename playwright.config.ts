import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

import { chromiumExecutable } from "./test/chromium";

// e2e against the built app (`next start`) on its embedded defaults, in Chromium: CHROMIUM_PATH, Debian's
// /usr/bin/chromium, else Playwright's own (test/chromium.ts; `npm run test:e2e` installs it when needed).
// Ports: the app on `port`; port+4 is taken by the server magic-link.spec.ts starts itself (port+1 is free);
// port+5 for viewer.spec.ts's app without speech recognition; the fakes and the billing app
// below (port+2, port+3, port+6 and port+7). The checks that need no browser (the fuzzer, rate limits, headers,
// MCP, feeds) run against apps of their own in the server suite (test/server).
const port = Number(process.env.E2E_PORT ?? 3123);
const fakeYoutubePort = port + 2;
const fakeAsrPort = port + 3;
// A second app with billing on, against a fake Stripe that e2e/billing.spec.ts starts in the test process
// (so it can drive Stripe's side: failed payments, the period end). The ports reach the spec through the
// environment, which the test workers inherit.
const billingPort = port + 6;
const fakeStripePort = port + 7;
process.env.E2E_BILLING_ORIGIN = `http://127.0.0.1:${billingPort}`;
process.env.E2E_FAKE_STRIPE_PORT = String(fakeStripePort);
process.env.E2E_STRIPE_WEBHOOK_SECRET = "whsec_fake_e2e";
process.env.E2E_STRIPE_SECRET_KEY = "sk_test_fake_verbatim";
const dataDir = path.join(os.tmpdir(), `verbatim-e2e-${process.env.E2E_RUN_ID ?? Date.now().toString(36)}`);
process.env.E2E_RUN_ID ??= path.basename(dataDir).replace("verbatim-e2e-", "");

/** The YouTube and speech-recognition fakes above, as an app's settings. */
const withFakes = {
  YOUTUBE_BASE_URL: `http://127.0.0.1:${fakeYoutubePort}`,
  OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  ASR_OPENAI_BASE_URL: `http://127.0.0.1:${fakeAsrPort}`,
};

/**
 * `next start` of the one build on `appPort`, with these settings (each app its own DATA_DIR). Its output
 * goes to test-results/server-logs/app-<port>.log, which e2e/global-teardown.ts searches for leaked keys.
 */
function app(appPort: number, env: Record<string, string>) {
  return {
    command: `mkdir -p test-results/server-logs && exec npx next start -p ${appPort} -H 127.0.0.1 > test-results/server-logs/app-${appPort}.log 2>&1`,
    url: `http://127.0.0.1:${appPort}/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  };
}

export default defineConfig({
  testDir: "e2e",
  // Spec files side by side on machines with the cores for it (Playwright's default: a worker per two cores),
  // each file's tests in order in one worker. The apps are shared: every spec makes its own users, and the
  // checks that use up per-address limits run in the server suite (test/server), against apps of their own. On
  // two cores that is one worker: two made every test about twice as slow, the run hardly shorter, and
  // web-first assertions timed out.
  fullyParallel: false,
  workers: process.env.E2E_WORKERS || "50%",
  // One retry on CI, as Playwright's own template sets: a test that fails twice fails the run, and one that
  // passes only on its retry is listed as flaky in the report (read them: each is a timing bug to fix).
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 90_000,
  // Two shards share two cores with the unit and integration suites (npm test): a web-first assertion waits up
  // to 15 s for what a quiet machine shows in one.
  expect: { timeout: 15_000 },
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: [
    {
      // YouTube as the app sees it: the InnerTube + timedtext fake with its hand-made fixtures.
      command: `npx tsx test/fakes/youtube/serve.ts ${fakeYoutubePort}`,
      port: fakeYoutubePort,
      reuseExistingServer: false,
      stdout: "ignore",
    },
    {
      // Speech recognition as the app sees it: an OpenAI-compatible fake that hears every upload as the
      // same two sentences, each answer held back a second so the job is seen running.
      command: `npx tsx test/fakes/openai-asr/serve.ts ${fakeAsrPort} 1000`,
      port: fakeAsrPort,
      reuseExistingServer: false,
      stdout: "ignore",
    },
    // Two workers sign in through it from one address: the per-address sign-in limit (60 in 10 minutes) is
    // for people, and no spec tests it here (the server suite's fuzz app keeps the real limits).
    // Billing is off here, so it has no allowance unless one is set: the specs that show and use one up (the
    // usage line, the cost prompts, the CLI's exit 4) see an operator who set the contract's free 15 minutes.
    app(port, {
      DATA_DIR: dataDir,
      APP_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MULTIPLIER: "10",
      FREE_ALLOWANCE_SECONDS: "900",
      ...withFakes,
    }),
    // The same build with billing on. Stripe is first asked when a page needs it, after the spec has
    // started the fake.
    app(billingPort, {
      DATA_DIR: `${dataDir}-billing`,
      APP_URL: process.env.E2E_BILLING_ORIGIN!,
      STRIPE_SECRET_KEY: process.env.E2E_STRIPE_SECRET_KEY!,
      STRIPE_API_BASE: `http://127.0.0.1:${fakeStripePort}`,
      STRIPE_PRICE_PRO: "verbatim_pro",
      STRIPE_PRICE_ULTRA: "verbatim_ultra",
      STRIPE_WEBHOOK_SECRET: process.env.E2E_STRIPE_WEBHOOK_SECRET!,
    }),
  ],
});
