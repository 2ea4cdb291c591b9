import { checkServerLogs } from "../test/secrets";

// After the run: no API key or token the run created (recordSecrets), no secret the apps were configured with,
// and nothing shaped like one of our keys or tokens, appears in any app server's log (test/apps.ts writes each to
// test-results/server-logs/app-<name>-<port>.log; test/secrets.ts does the search).

export default async function globalTeardown() {
  checkServerLogs({
    logs: (name) => name.startsWith("app-"),
    configured: [process.env.E2E_STRIPE_WEBHOOK_SECRET, process.env.E2E_STRIPE_SECRET_KEY].filter(
      (value): value is string => Boolean(value),
    ),
  });
}
