import path from "node:path";
import { defineConfig } from "@playwright/test";

import { testApps, type TestApp } from "./test/apps";

// The browser extension (extension/) loaded into full Chromium against the built app, the YouTube fake and the
// speech recogniser's fake. Its own
// config, apart from e2e/: an extension needs the full browser (Debian's `chromium`, EXTENSION_CHROMIUM_PATH, else
// Playwright's own, which the global setup installs when missing), not the headless shell the e2e suite runs.
// `npm test` runs it as its `extension` step; alone: `npm run test:extension` (the extension is built first, by the
// global setup; the app must be built: `npx next build`). Ports: E2E_EXTENSION_PORT (default 3423) and the fake at port+2.
const port = Number(process.env.E2E_EXTENSION_PORT ?? 3423);
const { apps } = testApps({ ...process.env, E2E_PORT: String(port), E2E_RUN_ID: `ext-${Date.now().toString(36)}` });
process.env.E2E_EXTENSION_APP = `http://127.0.0.1:${port}`;
process.env.E2E_EXTENSION_YOUTUBE = `http://127.0.0.1:${port + 2}`;

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
  testDir: "e2e-extension",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  globalSetup: "./e2e-extension/global-setup.ts",
  timeout: 120_000,
  // A guard against a hang on a busy shared machine (the first dashboard page can take seconds there), not a timing.
  expect: { timeout: 30_000 },
  use: { trace: "retain-on-failure" },
  webServer: apps.filter((app) => ["youtube", "asr", "app"].includes(app.name)).map(webServer),
});
