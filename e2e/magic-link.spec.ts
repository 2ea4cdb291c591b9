import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";

import { hydrating, test } from "./fixtures";

function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === "object" && value !== null ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

// Without SMTP (embedded defaults only) the magic link is written to the server log; following it
// signs the user in. This test starts its own server so it can read that log.
test("email sign-in: the link from the server log signs the user in", async ({ browser }) => {
  test.setTimeout(120_000);
  const port = Number(process.env.E2E_PORT ?? 3123) + 4; // playwright.config.ts keeps port+4 free for this
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-magic-"));
  const app = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: dataDir,
        APP_URL: `http://127.0.0.1:${port}`,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  app.stdout.on("data", (chunk) => (log += chunk));
  app.stderr.on("data", (chunk) => (log += chunk));
  // A client-sent X-Forwarded-Proto (TRUSTED_PROXY_HOPS=0) must not change the link's scheme.
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    extraHTTPHeaders: { "x-forwarded-proto": "https" },
  });
  try {
    await expect
      .poll(
        async () =>
          fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBe(200);
    const page = hydrating(await context.newPage());
    const email = `magic-${Date.now()}@example.test`;
    await page.goto("/dashboard/keys");
    await page.getByLabel("Email (we send you a sign-in link)").fill(email);
    await page.getByRole("button", { name: "Email me a link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

    // The server logs JSON lines (lib/observability/logger.ts): {"msg": "sign-in link", "email": …, "url": …}.
    const linkFor = (): string | null => {
      const line = jsonLines(log).find((entry) => entry.msg === "sign-in link" && entry.email === email);
      return typeof line?.url === "string" ? line.url : null;
    };
    await expect.poll(linkFor, { timeout: 10_000 }).not.toBeNull();
    const link = linkFor()!;
    expect(new URL(link).pathname).toBe("/api/auth/callback/nodemailer");
    expect(link.startsWith(`http://127.0.0.1:${port}/api/auth/callback/nodemailer?`), link).toBe(true);

    await page.goto(link);
    await expect(page).toHaveURL(/\/dashboard\/keys$/);
    await expect(page.getByTestId("user-email")).toHaveText(email);
    // A link works once.
    const second = hydrating(await context.newPage());
    await second.context().clearCookies();
    await second.goto(link);
    await expect(second).toHaveURL(/\/signin/);
  } finally {
    await context.close();
    app.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
