import { expect, test, type Page } from "@playwright/test";
import { devLogin, randomEmail } from "./helpers";

// Issue 10 item 8: security headers on every page, and the pages still work in Chromium with the
// Content-Security-Policy on: no violation is reported while signing in and walking the dashboard and
// the API reference.

const BASELINE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

test("every page carries the security headers; pages a nonce-based policy, a fresh nonce per view", async ({
  request,
}) => {
  const nonces = new Set<string>();
  for (const path of ["/", "/signin", "/dashboard", "/signin/check-email", "/no-such-page"]) {
    const response = await request.get(path, { maxRedirects: 0, failOnStatusCode: false });
    const headers = response.headers();
    expect(headers, path).toMatchObject(BASELINE);
    const csp = headers["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    nonces.add(nonce!);
    expect(csp, path).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp, path).not.toContain("unsafe-eval");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain(
      "frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com",
    );
    expect(csp, path).toContain("media-src 'self' blob:");
    // APP_URL is http here: no HSTS.
    expect(headers["strict-transport-security"], path).toBeUndefined();
    if (response.status() === 200) {
      // Next.js puts this view's nonce on every script it renders; no script goes without it.
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
  }
  expect(nonces.size).toBe(5);

  const docs = await request.get("/docs");
  expect(docs.headers()).toMatchObject(BASELINE);
  expect(docs.headers()["content-security-policy"]).toMatch(/script-src 'self';/);
  expect(docs.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(docs.headers()["content-security-policy"]).not.toContain("unsafe-eval");

  // Issue 21: the page Auth.js renders itself (sign-out confirmation) cannot be framed either.
  const signout = await request.get("/api/auth/signout");
  expect(signout.headers()["content-type"]).toMatch(/^text\/html/);
  expect(signout.headers()).toMatchObject(BASELINE);
  expect(signout.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  const api = await request.get("/v1/plans");
  expect(api.headers()).toMatchObject({
    ...BASELINE,
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
});

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
