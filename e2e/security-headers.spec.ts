import { expect, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";

// The pages still work in Chromium with the Content-Security-Policy on: no violation is
// reported while signing in and walking the dashboard and the API reference. (The headers themselves, on every
// page: test/server/security-headers.test.ts.)

/** Every CSP violation and every console error or warning, from every document the page loads. */
async function watch(page: Page) {
  const problems: string[] = [];
  await page.exposeBinding("__reportViolation", (_source, text: string) => {
    problems.push(`violation: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`,
      );
    });
  });
  page.on("console", (message) => {
    // A failed load is reported by URL below (the console line does not name it).
    if (message.text().startsWith("Failed to load resource")) return;
    if (message.type() === "error" || message.type() === "warning")
      problems.push(`console ${message.type()}: ${message.text()} (${page.url()})`);
  });
  page.on("response", (response) => {
    // The app has no favicon; Chromium asks for one anyway.
    if (response.status() >= 400 && new URL(response.url()).pathname !== "/favicon.ico")
      problems.push(`${response.status()} for ${response.url()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

test("with the policy on, sign-in → dashboard → keys → history → docs run without a violation", async ({ page }) => {
  const problems = await watch(page);
  await page.goto("/explore");
  // A client-side navigation into the sign-in gate (proxy.ts redirects it).
  await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard$/);
  await devLogin(page, randomEmail("csp"), page.url());
  await expect(page.getByTestId("user-email")).toBeVisible();
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("heading", { name: "API key" })).toBeVisible();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key")).toBeVisible();
  await page.goto("/dashboard/history");
  await page.waitForLoadState("networkidle");
  await page.goto("/docs");
  // Swagger UI rendered the document: its scripts ran under the docs policy.
  await expect(page.getByText("/v1/me/api-key/regenerate")).toBeVisible();
  await page.getByText("/v1/languages").first().click();
  await page.waitForLoadState("networkidle");
  expect(problems).toEqual([]);
});
