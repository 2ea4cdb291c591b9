import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { SERVER_LOGS_DIR } from "../test/secrets";

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

// Without SMTP (the e2e app has none) the magic link is written to the server log; following it signs the user in.
// The link is read from the app's log file (test/apps.ts writes it).
test("email sign-in: the link from the server log signs the user in", async ({ browser, baseURL }) => {
  const log = path.join(SERVER_LOGS_DIR, `app-app-${process.env.E2E_PORT ?? 3123}.log`);
  // A client-sent X-Forwarded-Proto (TRUSTED_PROXY_HOPS=0) must not change the link's scheme.
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-proto": "https" } });
  try {
    const page = hydrating(await context.newPage());
    const email = `magic-${Date.now()}@example.test`;
    await page.goto("/dashboard/keys");
    await page.getByLabel("Email (we send you a sign-in link)").fill(email);
    await page.getByRole("button", { name: "Email me a link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

    // The server logs JSON lines (lib/observability/logger.ts): {"msg": "sign-in link", "email": …, "url": …}.
    const linkFor = (): string | null => {
      const line = jsonLines(readFileSync(log, "utf8")).find(
        (entry) => entry.msg === "sign-in link" && entry.email === email,
      );
      return typeof line?.url === "string" ? line.url : null;
    };
    await expect.poll(linkFor, { timeout: 10_000 }).not.toBeNull();
    const link = linkFor()!;
    expect(new URL(link).pathname).toBe("/api/auth/callback/nodemailer");
    expect(link.startsWith(`${baseURL}/api/auth/callback/nodemailer?`), link).toBe(true);

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
  }
});
