import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// The dashboard's Alerts page against the built app: an alert saved on the page is matched when a transcript
// enters the library (the app's own job runner), and shows in the inbox with its unread count until read.

test("save an alert, see a new transcript's match in its inbox with the unread count, mark it read", async ({
  page,
}) => {
  await devLogin(page, randomEmail("alerts"), "/dashboard/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await expect(page.getByText("No alerts yet.")).toBeVisible();
  await page.getByLabel("Words to watch for").fill("yeast fungus");
  await page.getByRole("button", { name: "Save alert" }).click();
  await expect(page.getByTestId("alert")).toHaveCount(1);
  await expect(page.getByTestId("alerts-unread")).toHaveText("Nothing unread.");

  const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  expect((await page.request.post("/v1/transcript", { data: { url, lang: "en" } })).status()).toBe(200);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("alerts-unread")).toHaveText("1 unread", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  await page.getByRole("button", { name: /yeast fungus/ }).click();
  const found = page.getByTestId("alert-match");
  await expect(found).toHaveCount(1);
  await expect(found).toContainText("new");
  await expect(found.getByRole("link").first()).toHaveAttribute("href", /\/dashboard\?transcript=/);
  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByTestId("alerts-unread")).toHaveText("Nothing unread.");
});
