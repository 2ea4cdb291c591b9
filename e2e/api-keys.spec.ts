import { expect, request } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { devLogin, randomEmail, recordSecrets } from "./helpers";

test("signed-out visits to the dashboard go to sign-in and come back", async ({ page }) => {
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard%2Fkeys$/);
  const email = randomEmail("redirect");
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/keys$/);
  await expect(page.getByRole("heading", { name: "API key" })).toBeVisible();
});

test("create a key, use it, regenerate it: the old key stops working at once", async ({ page, baseURL }) => {
  const email = randomEmail("keys");
  await devLogin(page, email, "/dashboard/keys");
  await expect(page).toHaveURL(/\/dashboard\/keys$/);
  await expect(page.getByTestId("key-prefix")).toHaveText("No key yet");

  await page.getByRole("button", { name: "Create key" }).click();
  const firstKey = (await page.getByTestId("new-key").textContent())!.trim();
  recordSecrets(firstKey);
  expect(firstKey).toMatch(/^vbt_[1-9A-HJ-NP-Za-km-z]{40,}$/);
  await expect(page.getByTestId("key-prefix")).toHaveText(`${firstKey.slice(0, 12)}…`);
  await expect(page.getByTestId("curl")).toContainText(`-H "Authorization: Bearer ${firstKey}"`);

  // A client with no cookies at all: only the key authenticates it.
  const api = await request.newContext({ baseURL });
  const withFirst = await api.get("/v1/me/api-key", { headers: { authorization: `Bearer ${firstKey}` } });
  expect(withFirst.status()).toBe(200);
  expect(await withFirst.json()).toMatchObject({
    has_key: true,
    key_prefix: firstKey.slice(0, 12),
    tier: "free",
    key: null,
  });

  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("stops working immediately");
  await page.getByRole("button", { name: "Yes, regenerate" }).click();
  await expect(page.getByTestId("new-key")).not.toHaveText(firstKey);
  const secondKey = (await page.getByTestId("new-key").textContent())!.trim();
  recordSecrets(secondKey);
  expect(secondKey).toMatch(/^vbt_/);

  const oldKey = await api.get("/v1/me/api-key", { headers: { authorization: `Bearer ${firstKey}` } });
  expect(oldKey.status()).toBe(401);
  expect(oldKey.headers()["www-authenticate"]).toMatch(/^Bearer/);
  const newKey = await api.get("/v1/me/api-key", { headers: { authorization: `Bearer ${secondKey}` } });
  expect(newKey.status()).toBe(200);

  // The plaintext is not shown again after a reload.
  await page.reload();
  await expect(page.getByTestId("key-prefix")).toHaveText(`${secondKey.slice(0, 12)}…`);
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await api.dispose();
});

test("sign out, and sign out everywhere: an old session cookie opens nothing afterwards", async ({ browser, page }) => {
  const email = randomEmail("sessions");
  await devLogin(page, email, "/dashboard/keys");
  // The same account in a second browser, and a copy of the first browser's cookie taken before sign-out.
  const other = await browser.newContext();
  const otherPage = hydrating(await other.newPage());
  await devLogin(otherPage, email, "/dashboard/keys");
  const copied = await page.context().cookies();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const replay = await browser.newContext();
  await replay.addCookies(copied);
  const replayPage = hydrating(await replay.newPage());
  await replayPage.goto("/dashboard/keys");
  await expect(replayPage).toHaveURL(/\/signin/);
  expect((await replayPage.request.get("/v1/me/api-key")).status()).toBe(401);

  // The second browser is still signed in until it signs out everywhere; then it is signed out too.
  await otherPage.reload();
  await expect(otherPage.getByTestId("user-email")).toHaveText(email);
  await otherPage.getByRole("button", { name: "Sign out everywhere" }).click();
  await otherPage.getByRole("button", { name: "Yes, sign out everywhere" }).click();
  await expect(otherPage).toHaveURL(/\/signin/);
  await otherPage.goto("/dashboard");
  await expect(otherPage).toHaveURL(/\/signin/);
  expect((await otherPage.request.get("/v1/me/api-key")).status()).toBe(401);
  await Promise.all([other.close(), replay.close()]);
});

test("the API reference renders from /openapi.json without any CDN", async ({ page }) => {
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1")) external.push(r.url());
  });
  await page.goto("/docs");
  await expect(page.getByText("/v1/me/api-key/regenerate")).toBeVisible();
  expect(external).toEqual([]);
});
