import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

// The README's promise: the built app starts with no settings at all (embedded PGlite) and is healthy.
test("starts with no settings at all and answers /health", async () => {
  test.setTimeout(120_000);
  const port = Number(process.env.E2E_PORT ?? 3123) + 1; // playwright.config.ts keeps port+1 free for this
  const bare = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const app = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: bare as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  app.stdout.on("data", (chunk) => (log += chunk));
  app.stderr.on("data", (chunk) => (log += chunk));
  try {
    let health: { status: number; body: unknown } | undefined;
    for (let attempt = 0; attempt < 200 && !health; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        health = { status: response.status, body: await response.json() };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(health, log).toBeDefined();
    expect(health!.status).toBe(200);
    expect(health!.body).toMatchObject({ status: "ok", database: "ok", database_kind: "pglite" });
  } finally {
    app.kill("SIGTERM");
  }
});
