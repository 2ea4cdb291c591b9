import { expect, request, test } from "@playwright/test";
import { devLogin, randomEmail } from "./helpers";

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
  expect(firstKey).toMatch(/^vbt_[1-9A-HJ-NP-Za-km-z]{40,}$/);
  await expect(page.getByTestId("key-prefix")).toHaveText(`${firstKey.slice(0, 12)}…`);
  await expect(page.getByText(`curl -H "Authorization: Bearer ${firstKey}"`)).toBeVisible();

  // A client with no cookies at all: only the key authenticates it.
  const api = await request.newContext({ baseURL });
  const withFirst = await api.get("/v1/me/api-key", { headers: { authorization: `Bearer ${firstKey}` } });
  expect(withFirst.status()).toBe(200);
  expect(await withFirst.json()).toMatchObject({ has_key: true, key_prefix: firstKey.slice(0, 12), tier: "free", key: null });

  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("stops working immediately");
  await page.getByRole("button", { name: "Yes, regenerate" }).click();
  await expect(page.getByTestId("new-key")).not.toHaveText(firstKey);
  const secondKey = (await page.getByTestId("new-key").textContent())!.trim();
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

test("the API reference renders from /openapi.json without any CDN", async ({ page }) => {
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1")) external.push(r.url());
  });
  await page.goto("/docs");
  await expect(page.getByText("/v1/me/api-key/regenerate")).toBeVisible();
  expect(external).toEqual([]);
});
