import { expect, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// Publish a transcript from the dashboard, read its public page with and without JavaScript, find it on
// /explore, and take it down again. The transcript comes from the YouTube fake (playwright.config.ts):
// "How Bread Rises: Yeast, Gluten & the "Oven Spring"", whose English captions begin with "[MUSIC]".

const videoId = FAKE_IDS.captioned;
const title = 'How Bread Rises: Yeast, Gluten & the "Oven Spring"';

/**
 * The embedded YouTube player, replaced by a page that speaks the widget protocol: it lists the commands
 * it receives and, on seekTo, reports the new position back to the page as YouTube's player does.
 */
async function fakePlayer(page: Page) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><ol id="received"></ol><script>addEventListener("message", (event) => {
        const item = document.createElement("li"); item.textContent = event.data; document.getElementById("received").append(item);
        const message = JSON.parse(event.data);
        if (message.func === "seekTo") parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { currentTime: message.args[0] + 0.5 } }), "*");
      });</script>`,
    }),
  );
}

/** Signs in, transcribes the fake's captioned video and publishes it from the viewer; returns the public URL. */
async function publishFromDashboard(page: Page): Promise<string> {
  await devLogin(page, randomEmail("publish"));
  await page.getByLabel("Video or audio link").fill(`https://www.youtube.com/watch?v=${videoId}`);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("transcript-viewer")).toBeVisible();
  await page.getByTestId("publish-button").click();
  const link = page.getByTestId("published-link").getByRole("link");
  await expect(link).toHaveAttribute("href", /\/t\/how-bread-rises-yeast-gluten-the-oven-spring-[a-z0-9]{6}$/);
  return (await link.getAttribute("href"))!;
}

test("a published transcript: public page with player, seek, highlight, search, downloads, meta; explore; unpublish", async ({
  page,
}) => {
  await fakePlayer(page);
  const url = await publishFromDashboard(page);
  const path = new URL(url).pathname;

  await page.goto(path);
  await expect(page).toHaveTitle(`${title} — transcript · Verbatim`);
  await expect(page.getByTestId("public-title")).toHaveText(title);
  // The reading view is the default; the cue list (one line per caption cue) is one click away.
  await expect(page.getByTestId("paragraph").first()).toContainText("[MUSIC]");
  await page.getByTestId("view-toggle").click();
  await expect(page.getByTestId("view-toggle")).toHaveAttribute("aria-pressed", "true");
  const segments = page.getByTestId("public-segments").getByRole("listitem");
  await expect(segments.first()).toContainText("[MUSIC]");
  expect(await segments.count()).toBeGreaterThan(10);
  await expect(page.getByTestId("public-player")).toHaveAttribute(
    "src",
    `https://www.youtube-nocookie.com/embed/${videoId}?enablejsapi=1`,
  );

  // Meta tags and JSON-LD.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `${title} — transcript`);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /Kitchen Physics/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<
    string,
    string
  >;
  expect(jsonLd).toMatchObject({ "@type": "VideoObject", name: title, embedUrl: expect.stringContaining(videoId) });
  expect(jsonLd.transcript).toContain("Yeast is a tiny fungus");

  // A timestamp seeks the player (and plays); the position the player reports highlights its line.
  const third = segments.nth(2);
  const stamp = third.getByRole("link");
  const published = (await (await page.request.get(`/v1/public/${path.split("/").pop()}`)).json()) as {
    segments: { start: number }[];
  };
  const start = published.segments[2].start;
  await stamp.click();
  const received = page.frameLocator('[data-testid="public-player"]').locator("#received li");
  await expect(received.filter({ hasText: "seekTo" })).toHaveCount(1);
  const seek = JSON.parse((await received.filter({ hasText: "seekTo" }).textContent())!) as { args: unknown[] };
  expect(seek.args).toEqual([start, true]);
  await expect(received.filter({ hasText: "playVideo" })).toHaveCount(1);
  await expect(third).toHaveAttribute("aria-current", "true");
  await expect(page.locator('[data-testid="public-segments"] li[aria-current="true"]')).toHaveCount(1);
  expect(page.url()).not.toContain("youtube.com"); // the click stayed on the page

  // Search filters the lines as you type and marks the matches.
  const before = await segments.count();
  await page.getByTestId("transcript-search").fill("yeast");
  await expect(page.getByTestId("search-count")).toContainText("yeast");
  const after = await segments.count();
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThan(before);
  for (const text of await segments.allTextContents()) expect(text.toLowerCase()).toContain("yeast");
  await expect(segments.first().locator("mark").first()).toHaveText(/yeast/i);

  // A download link for every format.
  const downloads = page.getByTestId("public-downloads").getByRole("link");
  await expect(downloads).toHaveCount(5);
  const srt = await page.request.get((await downloads.filter({ hasText: "SRT" }).getAttribute("href"))!);
  expect(srt.status()).toBe(200);
  expect(await srt.text()).toMatch(/^1\n00:00:00,000 --> /);

  // Explore lists it; searching titles finds it.
  await page.goto(`/explore?q=${encodeURIComponent("bread rises")}`);
  await expect(page.getByTestId("explore-list").getByRole("link", { name: title }).first()).toBeVisible();
  // … and what was said: the moment links to its line on a public page ("why bread rises", segment 2 at 5.685 s).
  // Public search answers once per transcript: when other specs' users published the same video, the moment may
  // link to their page of it, so it is matched by its anchor and title, not by this user's slug.
  const moment = page.locator('[data-testid="explore-moment"][href$="#t5-2"]').filter({ hasText: title });
  await expect(moment).toHaveCount(1);
  expect(await moment.getAttribute("href")).toMatch(/^\/t\/how-bread-rises-[a-z0-9-]+#t5-2$/);

  // The dashboard's Published page: copy link is there; unpublish takes the page down at once.
  await page.goto("/dashboard/published");
  const row = page.getByTestId("published-row").filter({ has: page.locator(`a[href="${url}"]`) });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("copy-link")).toBeVisible();
  // … and the tag of each file for a podcast feed, whose file any origin may read.
  await row.getByTestId("feed-tags").locator("summary").click();
  const tags = row.getByTestId("feed-tag");
  await expect(tags).toHaveCount(4);
  await expect(tags.first()).toHaveText(
    /^<podcast:transcript url="https?:[^"]+\/transcript\.vtt" type="text\/vtt" language="en" rel="captions" \/>$/,
  );
  await expect(row.getByRole("button", { name: "Copy the text/html tag" })).toBeVisible();
  const vttUrl = /url="([^"]+)"/.exec((await tags.first().textContent())!)![1]!;
  const vtt = await page.request.get(new URL(vttUrl).pathname);
  expect(vtt.headers()["access-control-allow-origin"]).toBe("*");
  expect(await vtt.text()).toMatch(/^WEBVTT\n\n00:00:00\.000 --> /);
  await row.getByTestId("unpublish-button").click();
  await expect(row).toHaveCount(0);
  const gone = await page.request.get(path);
  expect(gone.status()).toBe(404);
  await page.goto(`/explore?q=${encodeURIComponent("bread rises")}`);
  await expect(page.locator(`[data-testid="explore-moment"][href^="${path}#"]`)).toHaveCount(0);
});

test("with JavaScript off the public page has its content, plain timestamp links and a working search", async ({
  browser,
  page,
}) => {
  const url = await publishFromDashboard(page);
  const path = new URL(url).pathname;

  const context = await browser.newContext({ javaScriptEnabled: false });
  const reader = await context.newPage();
  await reader.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html>" }),
  );
  await reader.goto(path);
  await expect(reader.getByTestId("public-title")).toHaveText(title);
  // The reading view, server-rendered: paragraphs of cues, each cue's id its moment (t<whole seconds>-<index>).
  const cues = reader.locator(".reading p > span[id]");
  await expect(cues.first()).toContainText("[MUSIC]");
  const yeast = cues.filter({ hasText: "Yeast is a tiny fungus" });
  await expect(yeast).toHaveCount(1);
  expect(Number(/^t(\d+)-/.exec((await yeast.getAttribute("id")) ?? "")?.[1])).toBeGreaterThan(0);
  // Without the player script, a paragraph's timestamp is a plain link to its moment on YouTube.
  const paragraph = reader.getByTestId("paragraph").filter({ hasText: "Yeast is a tiny fungus" });
  const start = Number(/^t(\d+)-/.exec((await paragraph.locator("span[id]").first().getAttribute("id")) ?? "")?.[1]);
  await expect(paragraph.locator(".stamp a")).toHaveAttribute(
    "href",
    `https://www.youtube.com/watch?v=${videoId}&t=${start}s`,
  );

  // The search is a GET form: the server shows the paragraphs that match.
  await reader.getByTestId("transcript-search").fill("gluten");
  await reader.getByRole("button", { name: "Search" }).click();
  await expect(reader).toHaveURL(/[?&]q=gluten/);
  const matching = await reader.getByTestId("paragraph").allTextContents();
  expect(matching.length).toBeGreaterThan(0);
  for (const text of matching) expect(text.toLowerCase()).toContain("gluten");
  await context.close();
});

test("the public page is served from Next.js's cache; unpublishing, publishing again and deleting from history show at once", async ({
  page,
}) => {
  const url = await publishFromDashboard(page);
  const path = new URL(url).pathname;
  const slug = path.split("/")[2];
  const inSitemap = async () => (await (await page.request.get("/sitemaps/0.xml")).text()).includes(`/t/${slug}<`);
  const onExplore = async () => (await (await page.request.get("/explore")).text()).includes(`href="/t/${slug}"`);

  expect((await page.request.get(path)).status()).toBe(200);
  const cached = await page.request.get(path);
  expect(cached.status()).toBe(200);
  expect(cached.headers()["x-nextjs-cache"]).toBe("HIT");
  expect(cached.headers()["cache-control"]).toMatch(/(^|, )s-maxage=\d+/);
  // The same bytes for every view: a policy without a nonce, still unframeable, no eval.
  const csp = cached.headers()["content-security-policy"];
  expect(csp).toContain("script-src 'self' 'unsafe-inline';");
  expect(csp).not.toContain("nonce-");
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(await inSitemap()).toBe(true);
  expect(await onExplore()).toBe(true);
  // /explore's first page is cached the same way; the sitemaps tell shared caches how long they may keep them.
  const explore = await page.request.get("/explore");
  expect(explore.headers()["x-nextjs-cache"]).toBe("HIT");
  expect(explore.headers()["cache-control"]).toMatch(/(^|, )s-maxage=\d+/);
  expect(explore.headers()["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline';");
  expect((await page.request.get("/sitemaps/0.xml")).headers()["cache-control"]).toMatch(/^public, .*s-maxage=\d+/);

  expect((await page.request.delete(`/v1/publish/${slug}`)).status()).toBe(204);
  expect((await page.request.get(path)).status()).toBe(404);
  expect((await page.request.get(path)).status()).toBe(404);
  expect(await inSitemap()).toBe(false);
  expect(await onExplore()).toBe(false);

  const again = await page.request.post("/v1/publish", {
    data: { url: `https://www.youtube.com/watch?v=${videoId}`, lang: "en" },
  });
  expect(again.status()).toBe(200);
  expect(((await again.json()) as { slug: string }).slug).toBe(slug);
  expect((await page.request.get(path)).status()).toBe(200);
  expect(await inSitemap()).toBe(true);

  const history = (await (await page.request.get("/v1/me/transcriptions")).json()) as {
    transcriptions: { id: string; video_id: string }[];
  };
  const entry = history.transcriptions.find((item) => item.video_id === videoId)!;
  expect((await page.request.delete(`/v1/me/transcriptions/${entry.id}`)).status()).toBe(204);
  expect((await page.request.get(path)).status()).toBe(404);
  expect(await inSitemap()).toBe(false);
});
