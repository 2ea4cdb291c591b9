import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { generatedFeed, startFakePodcastServer, toneWav, type FakePodcastServer } from "../test/fakes/podcasts/server";

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
  // What it will take is said before it starts: no recognition, since every episode publishes its own transcript,
  // and their length from the allowance.
  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText("3 episodes");
  await expect(preview.getByTestId("import-cost")).toHaveText(
    /^Every episode publishes its own transcript: each is taken as it is, at once, without speech recognition\. About .+ of audio counts toward your allowance; episodes already in your history are free\./,
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

test("an episode's public page: who speaks, its audio with the player's keys, Listen, and a PodcastEpisode", async ({
  page,
}) => {
  // The feed's own transcript (the Podcasting 2.0 example SRT, which names its speakers) and 30 s of audio, served
  // by range as podcast hosts do (a file that cannot be fetched by range cannot be seeked).
  const audio = `${feeds.origin}/ex/e2e-page-1.mp3`;
  const wav = toneWav(30);
  await page.route(audio, (route) => {
    const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? "");
    if (!range)
      return route.fulfill({ status: 200, contentType: "audio/wav", body: wav, headers: { "accept-ranges": "bytes" } });
    const from = Number(range[1]);
    const to = range[2] ? Math.min(Number(range[2]), wav.length - 1) : wav.length - 1;
    return route.fulfill({
      status: 206,
      contentType: "audio/wav",
      body: wav.subarray(from, to + 1),
      headers: { "accept-ranges": "bytes", "content-range": `bytes ${from}-${to}/${wav.length}` },
    });
  });
  feeds.live.set(
    "/live/e2e-page.xml",
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Podcasting Q and A</title>
<item><title>Ten things we wish we knew</title><guid>e2e-page-1</guid><podcast:transcript url="${feeds.origin}/ex/e2e-page-1/transcript.srt" type="application/x-subrip"/><enclosure url="${audio}" type="audio/mpeg" length="1000"/></item>
</channel></rss>`,
  );
  await devLogin(page, randomEmail("imports-page"));
  expect(
    (await page.request.post("/v1/podcast/resolve", { data: { url: `${feeds.origin}/live/e2e-page.xml` } })).status(),
  ).toBe(200);
  const made = await page.request.post("/v1/transcript", { data: { url: audio, lang: "en" } });
  expect(made.status()).toBe(200);
  const { id } = (await made.json()) as { id: string };
  const published = await page.request.post("/v1/publish", { data: { url: audio, lang: "en" } });
  const { slug } = (await published.json()) as { slug: string };

  // The dashboard's viewer plays the episode too.
  await page.goto(`/dashboard?transcript=${id}`);
  await expect(page.getByTestId("player-pane").getByTestId("episode-audio")).toHaveAttribute("src", audio);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/t/${slug}`);
  // Who speaks, where it changes, as the dashboard shows it.
  await expect(page.getByTestId("reading-view").getByTestId("speaker").first()).toHaveText("Travis:");
  await expect(page.getByTestId("public-source")).toHaveText("Listen");
  const structured = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as {
    "@type": string;
    associatedMedia: { contentUrl: string; transcript: string };
  };
  expect(structured["@type"]).toBe("PodcastEpisode");
  expect(structured.associatedMedia.contentUrl).toBe(audio);

  // The player's keys drive the <audio>, and the line being played follows it.
  const player = page.getByTestId("episode-audio");
  await expect(player).toHaveAttribute("src", audio);
  const paused = () => player.evaluate((element: HTMLAudioElement) => element.paused);
  await page.keyboard.press("k");
  await expect.poll(paused).toBe(false);
  await page.keyboard.press("k");
  await expect.poll(paused).toBe(true);
  await page.keyboard.press("l");
  await expect
    .poll(() => player.evaluate((element: HTMLAudioElement) => element.currentTime))
    .toBeGreaterThanOrEqual(5);
  await expect(page.locator('.reading [data-playing="true"]')).toHaveCount(1);
  // A timestamp plays from its moment (the first: the audio here is 30 s long).
  await page.getByTestId("reading-view").getByRole("link", { name: "Play from 0:00" }).click();
  await expect.poll(paused).toBe(false);
});

test("a followed show's page lists its published episodes by their feed's names, on a wide screen and a phone", async ({
  page,
}) => {
  await devLogin(page, randomEmail("imports-show"));
  const followed = await page.request.post("/v1/follows", {
    data: { url: `${feeds.origin}/generated/2.xml?prefix=e2eshow&transcripts=1`, backfill: 2, publish: true },
  });
  expect(followed.status(), await followed.text()).toBe(201);
  const showPath = new URL(((await followed.json()) as { show_url: string }).show_url).pathname;
  await expect
    .poll(async () => (await page.request.get(`${showPath}/feed.xml`)).status(), {
      message: "both episodes published (the show's feed answers with them)",
      timeout: 60_000,
    })
    .toBe(200);
  await expect.poll(async () => (await page.request.get(`${showPath}/feed.xml`)).text()).toContain("Episode 1");

  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(showPath);
    await expect(page.getByTestId("show-title")).toHaveText("Generated show (2)");
    // Newest first, each named as its feed names it.
    await expect(page.getByTestId("show-episodes").getByRole("link")).toHaveText(["Episode 2", "Episode 1"]);
    const scan = await axeScan(page).analyze();
    expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  }
  // A search inside the show finds what its own episodes said (others' transcripts say it too), as a plain GET form.
  await page.getByTestId("show-search").fill("father");
  await page.getByTestId("show-search").press("Enter");
  await expect(page).toHaveURL(new RegExp(`${showPath}\\?q=father$`));
  const moments = page.getByTestId("explore-moment");
  await expect(moments).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Said in this show" })).toBeVisible();
  expect((await moments.locator("span.font-medium").allTextContents()).sort()).toEqual(["Episode 1", "Episode 2"]);
  await expect(page.getByTestId("show-episodes").getByRole("link")).toHaveText(["Episode 2", "Episode 1"]);
  await page.getByTestId("show-search").fill("lightsaber");
  await page.getByTestId("show-search").press("Enter");
  await expect(page.getByTestId("show-search-empty")).toContainText("lightsaber");
  await expect(moments).toHaveCount(0);
  await page.goto(showPath);
  // A podcast app or a reader's browser finds the show's feed from its page.
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    new RegExp(`${showPath}/feed\\.xml$`),
  );
  await page.getByTestId("show-episodes").getByRole("link", { name: "Episode 2" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Episode 2");
  // Dated as its feed dates it (and the show's page lists it), not by when it was published here.
  await expect(page.locator("main header time")).toHaveText("3 Jan 2024");
  const structured = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as {
    "@type": string;
    partOfSeries: { name: string; url: string };
  };
  expect(structured["@type"]).toBe("PodcastEpisode");
  expect(structured.partOfSeries.name).toBe("Generated show (2)");
  expect(new URL(structured.partOfSeries.url).pathname).toBe(showPath);
  // The episode's page names its show, in one line on the phone, and leads back to it.
  const back = page
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link", { name: "Show: Generated show (2)" });
  await expect(back).toBeVisible();
  expect((await back.boundingBox())!.height).toBeLessThan(30);
  const scan = await axeScan(page).analyze();
  expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  const episodePath = new URL(page.url()).pathname;
  await back.click();
  await expect(page).toHaveURL(new RegExp(`${showPath}$`));
  await expect(page.getByTestId("show-title")).toHaveText("Generated show (2)");

  // Following it no more takes the show page away, and the episode's page (still published) no longer links to it.
  const { id } = (await followed.json()) as { id: string };
  expect((await page.request.delete(`/v1/follows/${id}`)).status()).toBe(204);
  expect((await page.goto(showPath))!.status()).toBe(404);
  await page.goto(episodePath);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Episode 2");
  await expect(page.getByRole("link", { name: "← All published transcripts" })).toBeVisible();
  await expect(page.getByTestId("public-show")).toHaveCount(0);
});

test("what a publisher's file lost is said in the transcript's viewer, on a wide screen and a phone, light and dark", async ({
  page,
}) => {
  // A WebVTT whose second cue's times cannot be read: its four words are not in the transcript.
  feeds.live.set("/live/e2e-lossy.vtt", "WEBVTT\n\n0.5 --> 2\nKept.\n\n00:02 --> later\nThese four are lost.\n");
  feeds.live.set(
    "/live/e2e-lossy.xml",
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Lossy show</title>
<item><title>A lossy episode</title><guid>e2e-lossy-1</guid><podcast:transcript url="${feeds.origin}/live/e2e-lossy.vtt" type="text/vtt"/><enclosure url="${feeds.origin}/ex/e2e-lossy-1.mp3" type="audio/mpeg" length="1000"/></item>
</channel></rss>`,
  );
  await devLogin(page, randomEmail("imports-lossy"));
  expect(
    (await page.request.post("/v1/podcast/resolve", { data: { url: `${feeds.origin}/live/e2e-lossy.xml` } })).status(),
  ).toBe(200);
  const made = await page.request.post("/v1/transcript", {
    data: { url: `${feeds.origin}/ex/e2e-lossy-1.mp3`, lang: "en" },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { id } = (await made.json()) as { id: string };

  for (const [size, scheme] of [
    [{ width: 1280, height: 800 }, "light"],
    [{ width: 390, height: 844 }, "dark"],
  ] as const) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/dashboard?transcript=${id}`);
    const note = page.getByTestId("transcript-source-note");
    // On the first screen, above the text it is missing from, without opening the phone's details.
    await expect(note).toHaveText(
      "The publisher's transcript file has 1 passage (4 words) that could not be read, their times not being times: they are missing here.",
    );
    await expect(note).toBeInViewport();
    await expect(page.getByTestId("reading-view")).toContainText("Kept.");
    if (size.width > 640) await expect(page.getByTestId("transcript-caption-kind")).toHaveText("The publisher's own");
    const scan = await axeScan(page).include('[data-testid="transcript-viewer"]').analyze();
    expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  }
});

test("a follow's Check now checks at once and says what it found", async ({ page }) => {
  await devLogin(page, randomEmail("imports-check"));
  feeds.live.set(
    "/live/e2e-check.xml",
    generatedFeed(feeds.origin, 1, { title: "Call of Tuesday", prefix: "e2echeck", transcripts: true }),
  );
  const followed = await page.request.post("/v1/follows", {
    data: { url: `${feeds.origin}/live/e2e-check.xml`, backfill: 0 },
  });
  expect(followed.status(), await followed.text()).toBe(201);

  await page.goto("/dashboard/imports");
  const follow = page.getByTestId("follow");
  // Followed without a backfill: its first check finds nothing new, and the next one is a while off.
  await expect(follow.getByTestId("follow-last-check")).toHaveText("Last checked just now: no new episodes.", {
    timeout: 30_000,
  });
  // A new episode appears in the feed: Check now finds it at once.
  feeds.live.set(
    "/live/e2e-check.xml",
    generatedFeed(feeds.origin, 2, { title: "Call of Tuesday", prefix: "e2echeck", transcripts: true }),
  );
  await follow.getByRole("button", { name: "Check now for new episodes of Call of Tuesday" }).click();
  await expect(follow.getByTestId("follow-last-check")).toHaveText(
    "Last checked just now: 1 new episode, “Episode 2”.",
    { timeout: 30_000 },
  );
  await expect(follow.getByTestId("follow-check-now")).toHaveText("Check now");
  await expect(follow.getByTestId("follow-check-now")).toBeEnabled();
  // Where the show's page and feed will be, for the episodes its owner publishes.
  const { show_url: showUrl } = (await followed.json()) as { show_url: string };
  const links = follow.getByTestId("follow-show-links");
  await expect(links.getByRole("link", { name: "public page" })).toHaveAttribute("href", showUrl);
  await expect(links.getByRole("link", { name: "podcast feed with transcripts" })).toHaveAttribute(
    "href",
    `${showUrl}/feed.xml`,
  );
});
