import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Where specs note the keys and tokens they were given; e2e/global-teardown.ts looks for them in the server logs. */
export const SECRETS_FILE = path.resolve("test-results", "e2e-secrets.txt");

/** Notes API keys and tokens this run created: none may appear in any app server's log. */
export function recordSecrets(...values: unknown[]): void {
  const secrets = values.filter((value): value is string => typeof value === "string" && value.length > 0);
  if (secrets.length === 0) return;
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true });
  appendFileSync(SECRETS_FILE, secrets.map((secret) => `${secret}\n`).join(""));
}

/** A fresh email per test, so tests never see each other's data. */
export function randomEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Signs in through the sign-in page with the development login (on by default with embedded defaults). */
export async function devLogin(page: Page, email: string, from = "/dashboard") {
  await page.goto(from);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(email);
}

/**
 * axe-core on our own document, iframes left out (the embedded players are third-party pages). Legacy mode runs
 * axe once in the page: the default mode gathers each frame's results and merges them in a blank page it opens
 * for every scan, which took 2.0 s instead of 0.7 s on the home page and 10.4 s instead of 3.3 s on /docs on a
 * 2-core machine, with the same results. With the iframes excluded there is nothing for it to merge.
 */
export function axeScan(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).exclude("iframe").setLegacyMode(true);
}
