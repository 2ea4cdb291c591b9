import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// The history's rows and actions, the keys page, the API reference's examples, the 404,
// sign-in, dark mode and the header on a phone. The transcripts come from the YouTube fake (playwright.config.ts).

const captionedUrl = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
const title = 'How Bread Rises: Yeast, Gluten & the "Oven Spring"';
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** Relative lightness (0–1) of an element's computed colour property, whatever notation Chromium reports it in. */
async function lightness(page: Page, selector: string, property: "color" | "backgroundColor"): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element, name) => {
      const context = document.createElement("canvas").getContext("2d")!;
      context.fillStyle = getComputedStyle(element)[name];
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    }, property);
}

async function withHistory(page: Page) {
  await page.route("https://i.ytimg.com/**", (route) => route.fulfill({ contentType: "image/png", body: PIXEL }));
  await devLogin(page, randomEmail("history-actions"));
  expect((await page.request.post("/v1/transcript", { data: { url: captionedUrl, lang: "en" } })).status()).toBe(200);
  const failed = await page.request.post("/v1/transcript", {
    data: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.private}`, lang: "en" },
  });
  expect(failed.ok()).toBe(false);
  return (await failed.json()).detail as string;
}

test.describe("history", () => {
  test("rows show the title and thumbnail; a failed request shows its reason; open, download and delete work", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const reason = await withHistory(page);
    await page.goto("/dashboard/history");
    await expect(page.getByTestId("history-table")).toBeVisible();
    const rows = page.getByTestId("history-row");
    await expect(rows).toHaveCount(2);

    const failedRow = rows.filter({ hasText: FAKE_IDS.private });
    await expect(failedRow.getByTestId("history-state-badge")).toHaveText("failed");
    await expect(failedRow.getByTestId("history-failure-reason")).toHaveText(reason);
    await expect(failedRow.getByTestId("history-retry-link")).toBeVisible();

    const row = rows.filter({ hasText: title });
    await expect(row.getByTestId("history-thumbnail")).toHaveAttribute(
      "src",
      `https://i.ytimg.com/vi/${FAKE_IDS.captioned}/mqdefault.jpg`,
    );
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    // At 1280 px a duration is one line box, not broken between its number and unit.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await row.getByTestId("history-duration").evaluate((el) => el.getClientRects().length)).toBe(1);
    await page.setViewportSize({ width: 1366, height: 900 });

    // Download: the transcript as a text file.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByTestId("history-download-txt").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.txt$/);
    const text = await readFile((await download.path())!, "utf8");
    expect(text.length).toBeGreaterThan(20);

    // Delete: asks once more, then the row is gone from the history (and from the API's list).
    await row.getByTestId("history-delete").click();
    await expect(row.getByTestId("history-delete-confirm")).toBeVisible();
    await row.getByRole("button", { name: "Keep" }).click();
    await expect(rows).toHaveCount(2);
    await failedRow.getByTestId("history-delete").click();
    await failedRow.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(rows).toHaveCount(1);
    await expect(page.getByLabel("Search titles, channels, video IDs and what was said")).toBeFocused();
    const list = await (await page.request.get("/v1/me/transcriptions")).json();
    expect(list.total).toBe(1);

    // Open: the title reads the stored transcript (it does not ask for it again).
    await row.getByTestId("history-video-link").click();
    await expect(page).toHaveURL(/\/dashboard\?transcript=[^&]+$/);
  });

  test("a phone gets cards, not a table, with the state and actions on each", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await withHistory(page);
    await page.goto("/dashboard/history");
    await expect(page.getByTestId("history-cards")).toBeVisible();
    await expect(page.getByTestId("history-table")).toHaveCount(0);
    const card = page.getByTestId("history-row").filter({ hasText: title });
    await expect(card.getByTestId("history-state-badge")).toHaveText("done");
    await expect(card.getByTestId("history-delete")).toBeVisible();
    await expect(card.getByTestId("history-download-srt")).toBeVisible();
  });

  test("the empty state points at the Transcribe page's sample", async ({ page }) => {
    await devLogin(page, randomEmail("history-empty"), "/dashboard/history");
    await expect(page.getByTestId("history-empty")).toContainText("sample link");
    await page.getByTestId("history-empty").getByRole("link", { name: "Transcribe page" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test("keys page: copy state resets for a new key, focus stays on the new key, a transcript curl that runs, last use", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await devLogin(page, randomEmail("keys-page"), "/dashboard/keys");
  await expect(page.getByTestId("key-last-used")).toHaveText("—");
  await page.getByRole("button", { name: "Create key" }).click();
  const copyKey = page.getByTestId("copy-key");
  await expect(copyKey).toBeFocused();
  await expect(copyKey).toHaveText("Copy key");
  await copyKey.click();
  await expect(copyKey).toHaveText("Copied");
  const firstKey = (await page.getByTestId("new-key").textContent())!.trim();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);
  await expect(page.getByTestId("key-last-used")).toHaveText("Never");

  await page.getByRole("button", { name: "Regenerate" }).click();
  await page.getByRole("button", { name: "Yes, regenerate" }).click();
  await expect(page.getByTestId("new-key")).not.toHaveText(firstKey);
  await expect(copyKey).toHaveText("Copy key");
  await expect(copyKey).toBeFocused();
  const key = (await page.getByTestId("new-key").textContent())!.trim();

  // The command: POST /v1/transcript with the key, copied whole; run as it says, it returns SRT.
  const curl = page.getByTestId("curl");
  await expect(curl).toContainText(`curl -X POST ${new URL(page.url()).origin}/v1/transcript`);
  await expect(curl).toContainText(`Authorization: Bearer ${key}`);
  await page.getByTestId("copy-curl").click();
  await expect(page.getByTestId("copy-curl")).toHaveText("Copied");
  const command = await page.evaluate(() => navigator.clipboard.readText());
  expect(command).toBe((await curl.textContent())!);
  const body = JSON.parse(/-d '(.*)'$/m.exec(command)![1]);
  expect(body).toEqual({ url: "https://www.youtube.com/watch?v=GJLlxj_dtq8", lang: "en", format: "srt" });
  const response = await page.request.post("/v1/transcript", {
    data: body,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status()).toBe(200);
  expect((await response.json()).content).toMatch(/^1\n00:00:/);

  // The key was used just now: the page says when.
  await page.reload();
  await expect(page.getByTestId("key-last-used").locator("time")).toHaveAttribute("datetime", /^\d{4}-/);
  await expect(page.getByTestId("curl")).toContainText("$VERBATIM_API_KEY");
});

test("API reference: an introduction, Transcripts first, no webhooks, and Try it out works with a key", async ({
  page,
}) => {
  await devLogin(page, randomEmail("docs"), "/dashboard/keys");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.trim();
  // A fresh browser: only the key authenticates, not the session cookie.
  const docs = hydrating(await page.context().browser()!.newPage());
  await docs.goto("/docs");
  await expect(docs.getByText("One call, two outcomes.")).toBeVisible();
  await expect(docs.locator(".opblock-tag").first()).toContainText("Transcripts");
  await expect(docs.getByText("/v1/webhooks/billing")).toHaveCount(0);
  await expect(docs.getByText("/v1/webhooks/assemblyai")).toHaveCount(0);

  await docs.locator(".btn.authorize").first().click();
  await docs.locator(".auth-container input").first().fill(key);
  await docs.locator(".auth-btn-wrapper .btn.authorize").first().click();
  await docs.locator(".auth-btn-wrapper .btn-done").first().click();

  const operation = docs.locator("#operations-Transcripts-postV1Transcript");
  await operation.locator(".opblock-summary").click();
  await operation.getByRole("button", { name: "Try it out" }).click();
  await expect(operation.locator("textarea.body-param__text")).toHaveValue(/GJLlxj_dtq8[\s\S]*"srt"/);
  await operation.getByRole("button", { name: "Execute" }).click();
  await expect(operation.locator(".live-responses-table .response .response-col_status").first()).toHaveText("200", {
    timeout: 30_000,
  });
  await docs.close();
});

test("404 inside the brand's shell, with a way back", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response!.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found · Verbatim");
  await expect(page.getByRole("banner").getByRole("link", { name: "Verbatim" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await page.getByRole("link", { name: "Browse public transcripts" }).click();
  await expect(page).toHaveURL(/\/explore$/);
  // The icons of the App Router's file conventions.
  expect((await page.request.get("/icon.svg")).headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect((await page.request.get("/apple-icon")).headers()["content-type"]).toBe("image/png");
});

test("sign-in: the development login stands apart; a signed-in visitor is sent on", async ({ page }) => {
  await page.goto("/signin");
  const dev = page.getByTestId("dev-login");
  await expect(dev).toContainText("Development only");
  await expect(dev.getByRole("button", { name: "Sign in (development)" })).toBeVisible();
  await expect(dev.getByRole("button", { name: "Email me a link" })).toHaveCount(0);
  await devLogin(page, randomEmail("signin-redirect"));
  await page.goto("/signin");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/signin?callbackUrl=%2Fdashboard%2Fkeys");
  await expect(page).toHaveURL(/\/dashboard\/keys$/);
});

test("dark mode follows the system; focus rings are visible; the phone header is one line, its pages one tap away", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await devLogin(page, randomEmail("dark"), "/dashboard/history");
  expect(await lightness(page, "body", "backgroundColor")).toBeLessThan(0.2);
  expect(await lightness(page, "header", "backgroundColor")).toBeLessThan(0.2);
  expect(await lightness(page, "h1", "color")).toBeGreaterThan(0.8);
  await page.emulateMedia({ colorScheme: "light" });
  expect(await lightness(page, "body", "backgroundColor")).toBeGreaterThan(0.9);
  expect(await lightness(page, "h1", "color")).toBeLessThan(0.2);

  // On a phone the header is one line: the pages are behind a button naming the current one; opened, every page
  // is on screen, and Escape closes it with focus back on the button.
  const header = await page.getByRole("banner").boundingBox();
  expect(header!.height).toBeLessThanOrEqual(70);
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
  const menu = page.getByTestId("dashboard-menu");
  await expect(menu).toHaveText(/History/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  const links = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link");
  await expect(links).toHaveCount(11);
  for (const link of await links.all()) {
    const box = (await link.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  }
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(links.first()).toBeHidden();

  await page.getByRole("link", { name: "Verbatim" }).focus();
  await page.keyboard.press("Tab");
  // The global outline, or components/ui's ring (a box-shadow, so that it follows rounded corners).
  const focus = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return { outline: style.outlineStyle, ring: style.boxShadow };
  });
  expect(focus.outline === "solid" || /0px 0px 0px [1-9]/.test(focus.ring)).toBe(true);

  // At a laptop's width every page is in the header's one line, and signing out is beside who is signed in (once).
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(menu).toBeHidden();
  await expect(links).toHaveCount(11);
  const tops = new Set<number>();
  for (const link of await links.all()) tops.add(Math.round((await link.boundingBox())!.y));
  expect([...tops]).toHaveLength(1);
  const workspaceRow = page.getByRole("region", { name: "Workspace" });
  await expect(workspaceRow.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(1);
});
