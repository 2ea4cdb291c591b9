import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { contrastProblems } from "./contrast";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { startFakePodcastServer, type FakePodcastServer } from "../test/fakes/podcasts/server";

let feeds: FakePodcastServer;
test.beforeAll(async () => {
  feeds = await startFakePodcastServer();
});
test.afterAll(async () => {
  await feeds?.close();
});

// The dashboard's Alerts page against the built app: an alert saved on the page is matched when a transcript
// enters the library (the app's own job runner), and shows in the inbox with its unread count until read; the form's
// scopes (a team's library, chosen follows) on a phone in the dark scheme.

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

test("on a phone in the dark, an alert watches a team's library or the episodes of a chosen follow", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await devLogin(page, randomEmail("alerts-scopes"), "/dashboard/alerts");
  expect((await page.request.post("/v1/teams", { data: { name: "Night desk" } })).status()).toBe(201);
  const followed = await page.request.post("/v1/follows", {
    data: { url: `${feeds.origin}/generated/1.xml?prefix=alertscope`, backfill: 0 },
  });
  expect(followed.status(), await followed.text()).toBe(201);
  await page.reload();

  const scope = page.getByLabel("In", { exact: true });
  await expect(scope.getByRole("option")).toHaveText([
    "my library",
    "the Night desk team's library",
    "episodes of chosen follows",
    "every published transcript",
  ]);
  await page.getByLabel("Words to watch for").fill("harbour pilot");
  await scope.selectOption({ label: "episodes of chosen follows" });
  const shows = page.getByRole("group", { name: "Shows to watch" });
  await expect(page.getByRole("button", { name: "Save alert" })).toBeDisabled();
  await shows.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: "Save alert" }).click();
  await expect(page.getByTestId("alert")).toContainText("Episodes of 1 show");

  await page.getByLabel("Words to watch for").fill("tide tables");
  await scope.selectOption({ label: "the Night desk team's library" });
  await page.getByRole("button", { name: "Save alert" }).click();
  await expect(page.getByTestId("alert").filter({ hasText: "tide tables" })).toContainText("Night desk's library");

  // Back to the follows, so that the list of shows is on the page for the checks below.
  await scope.selectOption({ label: "episodes of chosen follows" });
  await expect(shows).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const scan = await axeScan(page).withRules(["color-contrast"]).analyze();
  expect(await contrastProblems(page, "alerts form, phone, dark", scan)).toEqual([]);
});
