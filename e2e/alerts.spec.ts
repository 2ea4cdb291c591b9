import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { contrastProblems } from "./contrast";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { ALERTS_POLL_MS } from "../lib/browser/alerts";
import { startFakePodcastServer, type FakePodcastServer } from "../test/fakes/podcasts/server";

let feeds: FakePodcastServer;
test.beforeAll(async () => {
  feeds = await startFakePodcastServer();
});
test.afterAll(async () => {
  await feeds?.close();
});

// The dashboard's Alerts page against the built app: an alert saved on the page is matched when a transcript
// enters the library (the app's own job runner), and shows in the inbox and in the menu with its unread count until
// read, without a reload; the form's scopes (a team's library, chosen follows) on a phone in the dark scheme.

test("save an alert, see a new transcript's match in its inbox with the unread count, mark it read", async ({
  page,
}) => {
  // The page's clock, to move it to the next poll once the match is in (time flows as usual until then).
  await page.clock.install();
  await devLogin(page, randomEmail("alerts"), "/dashboard/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await expect(page.getByText("No alerts yet.")).toBeVisible();
  // The e2e app has no mail server: the form says where its mail goes.
  await expect(page.getByTestId("alert-mail-note")).toContainText("written to the server's log");
  await page.getByLabel("Words to watch for").fill("yeast fungus");
  await page.getByLabel("Also e-mail me").check();
  // Words typed while the save is pending are kept for the next alert: the save is held until they are typed.
  let release = () => {};
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v1/alerts", async (route) => {
    if (route.request().method() === "POST") await typed;
    await route.fallback();
  });
  await page.getByRole("button", { name: "Save alert" }).click();
  await expect(page.getByRole("button", { name: "Saving…" })).toBeDisabled();
  await page.getByLabel("Words to watch for").fill("sourdough");
  release();
  const card = page.getByTestId("alert");
  await expect(card).toHaveCount(1);
  await expect(page.getByLabel("Words to watch for")).toHaveValue("sourdough");
  await page.unroute("**/v1/alerts");
  await expect(card.getByTestId("alert-facts")).toHaveText("Library · by words · e-mail on");
  // The feed is an address for a feed reader, not a link to raw XML.
  await expect(card.getByRole("link")).toHaveCount(0);
  await expect(card.getByLabel(/Feed for a feed reader/)).toHaveValue(/\/alerts\/[A-Za-z0-9_-]+\/feed\.xml$/);
  await expect(page.getByTestId("alerts-unread")).toHaveText("Nothing unread.");
  await expect(page.getByTestId("nav-unread")).toHaveCount(0);

  // A match shows on the open page and in the menu of every dashboard page, without a reload.
  const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  expect((await page.request.post("/v1/transcript", { data: { url, lang: "en" } })).status()).toBe(200);
  const unread = async () => ((await (await page.request.get("/v1/alerts")).json()) as { unread: number }).unread;
  await expect.poll(unread, { timeout: 45_000 }).toBe(1);
  await page.clock.fastForward(ALERTS_POLL_MS);
  await expect(page.getByTestId("alerts-unread")).toHaveText("1 unread");
  await expect(page.getByTestId("dashboard-nav").getByTestId("nav-unread")).toHaveText("1 unread");
  await page.getByRole("link", { name: /^History/ }).click();
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
  await expect(page.getByTestId("dashboard-nav").getByTestId("nav-unread")).toHaveText("1 unread");
  await page.getByRole("link", { name: /^Alerts/ }).click();

  await page.getByRole("button", { name: /yeast fungus/ }).click();
  const found = page.getByTestId("alert-match");
  await expect(found).toHaveCount(1);
  await expect(found).toContainText("new");
  await expect(found.getByRole("link").first()).toHaveAttribute("href", /\/dashboard\?transcript=/);
  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByTestId("alerts-unread")).toHaveText("Nothing unread.");

  // Delete asks first.
  await card.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Delete yeast fungus" }).getByRole("button", { name: "Cancel" }).click();
  await expect(card).toHaveCount(1);
  await card.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("button", { name: "Delete alert" }).click();
  await expect(page.getByText("No alerts yet.")).toBeVisible();
});

test("on a phone in the dark, an alert watches a team's library or the episodes of a chosen follow", async ({
  page,
  baseURL,
}) => {
  const headers = { origin: baseURL! };
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

  // Saved from the person's own account, it is shown on the team's Alerts page too.
  const team = ((await (await page.request.get("/v1/teams")).json()) as { teams: { id: string }[] }).teams[0]!;
  expect((await page.request.put("/v1/me/workspace", { data: { workspace_id: team.id }, headers })).ok()).toBe(true);
  await page.reload();
  await expect(page.getByTestId("own-over-team")).toContainText("tide tables");
  await expect(page.getByText("No alerts yet.")).toBeVisible();
  expect((await page.request.put("/v1/me/workspace", { data: { workspace_id: null }, headers })).ok()).toBe(true);
  await page.reload();

  // Back to the follows, so that the list of shows is on the page for the checks below.
  await scope.selectOption({ label: "episodes of chosen follows" });
  await expect(shows).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const scan = await axeScan(page).withRules(["color-contrast"]).analyze();
  expect(await contrastProblems(page, "alerts form, phone, dark", scan)).toEqual([]);
});

test("an alert is tried on the last 30 days before it is saved, by words, and by meaning at a closeness in words", async ({
  page,
}) => {
  await devLogin(page, randomEmail("alerts-preview"), "/dashboard/alerts");
  const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  expect((await page.request.post("/v1/transcript", { data: { url, lang: "en" } })).status()).toBe(200);
  await page.getByLabel("Words to watch for").fill("yeast fungus");
  await page.getByRole("button", { name: "Try it on the last 30 days" }).click();
  await expect(page.getByTestId("alert-preview")).toContainText(
    "It would have matched 1 of the 1 transcript that came in over the last 30 days.",
  );
  // Another query is another alert: its preview is not shown for it.
  await page.getByLabel("Words to watch for").fill("yeast");
  await expect(page.getByTestId("alert-preview")).toHaveCount(0);

  await page.getByLabel("By meaning").check();
  await expect(page.getByLabel("A question or sentence to watch for")).toHaveValue("yeast");
  const closeness = page.getByLabel("At least");
  await expect(closeness.getByRole("option")).toHaveText(["related", "close", "very close"]);
  await expect(closeness).toHaveValue("very_close");
  await page.getByLabel("By its words").check();
  await expect(page.getByTestId("alert-closeness")).toHaveCount(0);
  await page.getByRole("button", { name: "Save alert" }).click();
  await expect(page.getByTestId("alert-facts")).toHaveText("Library · by words · e-mail off");
});
