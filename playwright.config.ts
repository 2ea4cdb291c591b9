import path from "node:path";
import { defineConfig } from "@playwright/test";

import { SUITE_APPS, appsToStart, testApps, type TestApp } from "./test/apps";
import { chromiumExecutable } from "./test/chromium";

// e2e against the built app (`next start`) on its embedded defaults, in Chromium: CHROMIUM_PATH, Debian's
// headless shell or full Chromium, else Playwright's own (test/chromium.ts; `npm run test:e2e` installs it when needed).
// The apps and fakes are defined once, in test/apps.ts, for this suite and the server suite: `npm test` starts
// e2e's once for both (VERBATIM_TEST_APPS_UP then names them, and nothing is started here); run alone, Playwright
// starts the ones e2e needs (the main app on `port`, the fakes, the billing app). Port port+5 is
// taken by the server viewer.spec.ts starts itself; port+7 by billing.spec.ts's
// fake Stripe; port+10 and port+11 by oidc.spec.ts's app and its OpenID Connect provider. The specs read the billing app's origin and Stripe's settings from the environment, which the
// test workers inherit.
const port = Number(process.env.E2E_PORT ?? 3123);
const { apps, settings } = testApps();
Object.assign(process.env, settings);

/** One app or fake of test/apps.ts as a Playwright web server: its output to its log, ready as test/apps.ts says. */
function webServer(app: TestApp) {
  return {
    command: `mkdir -p ${path.dirname(app.log)} && exec node ${app.args.join(" ")} > ${app.log} 2>&1`,
    ...(app.ready === "health" ? { url: `${app.origin}/health` } : { port: app.port }),
    timeout: 120_000,
    reuseExistingServer: false,
    env: app.env,
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
  // A count ("2") or a share of the cores ("50%"): Playwright takes a number or a percentage, not a count as text.
  workers: /^\d+$/.test(process.env.E2E_WORKERS ?? "")
    ? Number(process.env.E2E_WORKERS)
    : process.env.E2E_WORKERS || "50%",
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
    // Recorded on a failed test's retry, as Playwright's own template does: a trace recorded for every test keeps a
    // screencast of every page running (each frame rendered and encoded) for traces that a passing test throws away.
    trace: "on-first-retry",
  },
  webServer: appsToStart(apps, SUITE_APPS.e2e).map(webServer),
});
