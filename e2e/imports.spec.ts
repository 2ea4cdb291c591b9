import { expect, test } from "@playwright/test";
import { devLogin, randomEmail } from "./helpers";
import { startFakePodcastServer, type FakePodcastServer } from "../test/fakes/podcasts/server";

// The dashboard's imports page against the built app: a podcast host fake runs in the test process (the app
// may fetch 127.0.0.1: OUTBOUND_ALLOW_PRIVATE_HOSTS in playwright.config.ts). Its episodes publish Podcasting
// 2.0 transcripts, so each one completes on the captions path without waiting for speech recognition.

let feeds: FakePodcastServer;

test.beforeAll(async () => {
  feeds = await startFakePodcastServer();
});

test.afterAll(async () => {
  await feeds?.close();
});

test("import a feed from the dashboard and watch the batch finish", async ({ page }) => {
  await devLogin(page, randomEmail("imports"), "/dashboard/imports");
  await expect(page.getByRole("heading", { name: "Imports" })).toBeVisible();
  await expect(page.getByText("No imports yet.")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Imports" }),
  ).toHaveAttribute("aria-current", "page");

  await page
    .getByLabel(/Podcast feed, Apple Podcasts show/)
    .fill(`${feeds.origin}/generated/3.xml?prefix=e2e&transcripts=1`);
  await page.getByRole("button", { name: "Import" }).click();
  // What it will cost against the allowance is said before it starts.
  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText("3 episodes");
  await expect(preview.getByTestId("import-cost")).toContainText(
    /About \d+ min of audio.*You have [\d,]+ min left this period\./,
  );
  await expect(page.getByTestId("import-batch")).toHaveCount(0);
  await page.getByTestId("import-start").click();

  const batch = page.getByTestId("import-batch");
  await expect(batch).toHaveCount(1);
  await expect(batch.getByText("Generated show (3)")).toBeVisible({ timeout: 30_000 });
  await expect(batch.getByText("Done", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(batch.getByText("3 done · 0 already in your history · 0 failed · 3 in all")).toBeVisible();
  await expect(batch.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");

  // Its items, in the feed's order (newest first), each done with a link to its transcript.
  await batch.getByRole("button", { name: "Show items" }).click();
  const items = batch.getByTestId("import-item");
  await expect(items).toHaveCount(3);
  await expect(batch.getByTestId("import-item-title")).toHaveText(["Episode 3", "Episode 2", "Episode 1"]);
  await expect(batch.getByTestId("import-item-status")).toHaveText(["Done", "Done", "Done"]);
  await expect(batch.getByTestId("import-item-transcript")).toHaveCount(3);
  await items.nth(1).getByRole("link", { name: "Open transcript" }).click();
  await expect(page).toHaveURL(/\/dashboard\?transcript=[A-Za-z0-9_-]+$/);
  const viewer = page.getByTestId("transcript-viewer");
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId("transcript-platform")).toHaveText("Podcast");
  await expect(viewer.getByTestId("reading-view")).toContainText("father");
  await page.goBack();

  // The episodes are in the history now.
  await expect(page.getByTestId("import-batch")).toHaveCount(1);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("row")).toHaveCount(4); // header + 3 episodes
});

test("a URL that cannot be imported is refused in place", async ({ page }) => {
  await devLogin(page, randomEmail("imports-bad"), "/dashboard/imports");
  await page.getByLabel(/Podcast feed, Apple Podcasts show/).fill("http://169.254.169.254/latest");
  await page.getByRole("button", { name: "Import" }).click();
  await page.getByTestId("import-start").click();
  // The API's sentence, without the validator's "url:" / "Value error," prefixes.
  await expect(page.getByText(/^That URL .*private or reserved network address/)).toBeVisible();
  await expect(page.getByTestId("import-batch")).toHaveCount(0);
});
