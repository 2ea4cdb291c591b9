import { expect, type Locator, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { contrastProblems, toDarkScheme } from "./contrast";
import { WATCH_URL } from "./pages-world";

// What only a browser shows of the reading view: its type and line length, one scroll; a moment link
// (public #t<s>-<i>, History's &t=) landing below every sticky element, marked, the player cued; the phone's
// sticky player and toolbar within a third of the screen with nothing showing through; word times as seek
// targets, the word being played marked (the dashboard and public pages); axe in both schemes on the changed pages.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

interface PublicSegment {
  start: number;
  end: number;
  text: string;
}

/** The embedded YouTube player: lists the commands it receives, reports `reportAt` once asked to listen. */
async function fakePlayer(page: Page, reportAt: number | null = null) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><ol id="received"></ol><script>addEventListener("message", (event) => {
        const item = document.createElement("li"); item.textContent = event.data; document.getElementById("received").append(item);
        const message = JSON.parse(event.data);
        if (message.event === "listening" && ${reportAt !== null}) parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { currentTime: ${reportAt ?? 0} } }), "*");
        if (message.event === "listening" && ${reportAt === null}) parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { currentTime: 0 } }), "*");
      });</script>`,
    }),
  );
}

/** Signs in, transcribes the fake's captioned video, publishes it: its id, slug and public segments. */
async function published(page: Page, prefix: string) {
  await devLogin(page, randomEmail(prefix));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  const id = (await made.json()).id as string;
  const publish = await page.request.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } });
  expect(publish.status()).toBe(200);
  const slug = (await publish.json()).slug as string;
  const segments = ((await (await page.request.get(`/v1/public/${slug}`)).json()) as { segments: PublicSegment[] })
    .segments;
  return { id, slug, segments };
}

/** A segment far down the transcript (the last one with words), so that reaching it needs a scroll. */
function farSegment(segments: PublicSegment[]): number {
  for (let i = segments.length - 1; i > 0; i--) if (!/^\[.*\]$/.test(segments[i].text.trim())) return i;
  return segments.length - 1;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "element has a box").not.toBeNull();
  return found!;
}

/** The lowest bottom edge of the sticky elements in view (player, toolbar), in window coordinates. */
async function stickyBottom(page: Page): Promise<number> {
  return page.evaluate(() => {
    let bottom = 0;
    for (const element of document.querySelectorAll<HTMLElement>("[data-pinned]")) {
      if (getComputedStyle(element).position !== "sticky") continue;
      const rect = element.getBoundingClientRect();
      if (rect.bottom > 0 && rect.top < 5 + bottom) bottom = Math.max(bottom, rect.bottom);
    }
    return bottom;
  });
}

/**
 * The loaded page's full axe scan (no serious or critical violation, contrast included), then the same page switched
 * to the dark scheme and scanned for contrast alone: each scheme scanned once, as all-pages.spec.ts does.
 */
async function expectNoSeriousA11yViolations(page: Page, where: string) {
  const results = await axeScan(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${where}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  expect(await contrastProblems(page, where, results)).toEqual([]);
  expect(await toDarkScheme(page), `${where} follows the dark scheme`).toBe(true);
  const dark = await axeScan(page).withRules(["color-contrast"]).analyze();
  expect(await contrastProblems(page, `${where} (dark)`, dark)).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });
}

for (const viewport of [PHONE, DESKTOP]) {
  const name = viewport === PHONE ? "a phone" : "a wide screen";

  test(`on ${name}, a public moment link lands below the sticky player, marked, the player cued; back leaves the page`, async ({
    page,
  }) => {
    await fakePlayer(page);
    await page.setViewportSize(viewport);
    const { slug, segments } = await published(page, "moment-public");
    const index = farSegment(segments);
    const second = Math.floor(segments[index].start);
    const anchor = `t${second}-${index}`;

    await page.goto("/explore");
    const before = await page.evaluate(() => history.length);
    await page.goto(`/t/${slug}#${anchor}`);
    const cue = page.locator(`[id="${anchor}"]`);
    await expect(cue).toHaveAttribute("data-moment", "true");
    // The player is cued at the moment (its start), and the moment is the cue shown as played.
    await expect(page.getByTestId("public-player")).toHaveAttribute("src", new RegExp(`[?&]start=${second}$`));
    await expect(cue).toHaveAttribute("aria-current", "true");
    // Once the page has settled: the cue wholly in view, below the sticky player.
    await expect
      .poll(async () => {
        const [rect, covered] = [await box(cue), await stickyBottom(page)];
        return rect.y >= covered && rect.y + Math.min(rect.height, 40) <= viewport.height;
      })
      .toBe(true);
    const pane = await box(page.getByTestId("public-player-pane"));
    if (viewport === PHONE) {
      expect(pane.y).toBeLessThanOrEqual(1); // stuck at the top, so the check above was against it
      expect(pane.height).toBeLessThanOrEqual(PHONE.height / 3);
    } else {
      // Beside the text, stuck a little below the top.
      expect(pane.x + pane.width).toBeLessThanOrEqual((await box(cue)).x);
      expect(pane.y).toBeGreaterThanOrEqual(0);
      expect(pane.y).toBeLessThanOrEqual(16);
    }
    // Landing added no history entry and replaced none: back is the page the reader came from.
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await expect(page).toHaveURL(/\/explore$/);
  });
}

test("without JavaScript, on a phone and a wide screen, a moment link's cue lands below (or beside) the sticky player", async ({
  browser,
  page,
}) => {
  const { slug, segments } = await published(page, "moment-nojs");
  const index = farSegment(segments);
  const anchor = `t${Math.floor(segments[index].start)}-${index}`;
  const response = await page.request.get(`/t/${slug}`);
  test.info().annotations.push({ type: "page bytes", description: `/t/{slug}: ${(await response.body()).length}` });
  for (const viewport of [PHONE, DESKTOP]) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport });
    const reader = await context.newPage();
    await fakePlayer(reader);
    await reader.goto(`/t/${slug}#${anchor}`);
    const cue = reader.locator(`[id="${anchor}"]`);
    await expect(cue).toBeVisible();
    await expect
      .poll(async () => {
        const [rect, pane] = [await box(cue), await box(reader.getByTestId("public-player-pane"))];
        const inView = rect.y >= 0 && rect.y + Math.min(rect.height, 40) <= viewport.height;
        // A phone: the player stuck at the top, the cue below it. A wide screen: the player in view beside the text.
        return viewport === PHONE
          ? pane.y <= 1 && rect.y >= pane.y + pane.height && inView
          : pane.x + pane.width <= rect.x && pane.y >= 0 && pane.y <= 16 && inView;
      })
      .toBe(true);
    await context.close();
  }
});

test("on a phone, History's &t= moment lands below the sticky player and search bar, which take at most a third of the screen, opaque and touching", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(PHONE);
  const { id, segments } = await published(page, "moment-dashboard");
  const index = farSegment(segments);
  const start = segments[index].start;
  await page.goto(`/dashboard?${new URLSearchParams({ transcript: id, t: String(Math.round(start * 1000) / 1000) })}`);
  const cue = page.locator(`[id="t${Math.floor(start)}-${index}"]`);
  await expect(cue).toHaveAttribute("data-moment", "true");
  await expect(cue).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("transcript-player")).toHaveAttribute(
    "src",
    new RegExp(`[?&]start=${Math.floor(start)}$`),
  );
  const pane = page.getByTestId("player-pane");
  const toolbar = page.getByTestId("transcript-toolbar");
  // Polled: while the moment is being scrolled to, the pane or the cue can be between renders without a box.
  await expect.poll(async () => (await pane.boundingBox())?.y ?? Infinity).toBeLessThanOrEqual(1);
  await expect
    .poll(async () => {
      const rect = await cue.boundingBox();
      if (!rect) return false;
      const covered = await stickyBottom(page);
      return rect.y >= covered && rect.y + Math.min(rect.height, 40) <= PHONE.height;
    })
    .toBe(true);
  const [p, t] = [await box(pane), await box(toolbar)];
  expect(t.y + t.height - p.y, "player and search bar together").toBeLessThanOrEqual(PHONE.height / 3);
  expect(Math.abs(t.y - (p.y + p.height)), "no gap between player and search bar").toBeLessThanOrEqual(1);
  // Both opaque: nothing shows through.
  for (const element of [pane, toolbar]) {
    const alpha = await element.evaluate((node) => {
      const canvas = document.createElement("canvas").getContext("2d")!;
      canvas.fillStyle = getComputedStyle(node).backgroundColor;
      canvas.fillRect(0, 0, 1, 1);
      return canvas.getImageData(0, 0, 1, 1).data[3];
    });
    expect(alpha).toBe(255);
  }
  // The reader's options (cue list, auto-scroll, timestamps, Copy) fit the phone's width: none is off screen.
  const copy = await box(page.getByTestId("transcript-copy"));
  expect(copy.x + copy.width, "Copy's right edge").toBeLessThanOrEqual(PHONE.width);
});

test("the reading view on a wide screen: at least 16 px, 60–80 characters a line, one scroll; the cue list one click away", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(DESKTOP);
  const { id, slug } = await published(page, "reading-type");
  for (const path of [`/t/${slug}`, `/dashboard?transcript=${id}`]) {
    await page.goto(path);
    const view = page.getByTestId("reading-view");
    await expect(view.getByTestId("paragraph").first()).toBeVisible();
    const measured = await view.evaluate((root) => {
      const paragraphs = [...root.querySelectorAll<HTMLElement>("p")];
      const fontSize = Math.min(...paragraphs.map((p) => Number.parseFloat(getComputedStyle(p).fontSize)));
      // Characters on each line of the longest paragraph, from where each character is drawn.
      const longest = paragraphs.reduce((a, b) =>
        (a.textContent ?? "").length >= (b.textContent ?? "").length ? a : b,
      );
      const lines = new Map<number, number>();
      for (const cue of longest.querySelectorAll(":scope > span[id]")) {
        const walker = document.createTreeWalker(cue, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.textContent!.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.height === 0) continue;
            const top = Math.round(rect.top / 4);
            lines.set(top, (lines.get(top) ?? 0) + 1);
          }
        }
      }
      const counts = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, count]) => count);
      // A second scroller anywhere in the viewer: an element that scrolls its own content.
      const scrollers = [...document.querySelectorAll<HTMLElement>("main *")].filter((element) => {
        const overflow = getComputedStyle(element).overflowY;
        return (overflow === "auto" || overflow === "scroll") && element.scrollHeight > element.clientHeight + 1;
      }).length;
      return { fontSize, counts, scrollers };
    });
    expect(measured.fontSize, path).toBeGreaterThanOrEqual(16);
    const full = measured.counts.slice(0, -1); // the last line of a paragraph is short
    expect(full.length, `${path}: a paragraph of several lines`).toBeGreaterThanOrEqual(2);
    for (const count of full) {
      expect(count, `${path}: characters a line`).toBeGreaterThanOrEqual(55);
      expect(count, `${path}: characters a line`).toBeLessThanOrEqual(80);
    }
    expect(measured.scrollers, `${path}: inner scrollers`).toBe(0);
    test.info().annotations.push({ type: "line lengths", description: `${path}: ${measured.counts.join(", ")}` });

    await page.getByTestId("view-toggle").click();
    await expect(page.getByTestId("reading-view")).toHaveCount(0);
    await expect(page.getByTestId(path.startsWith("/t/") ? "public-segments" : "segments")).toBeVisible();
  }
});

test("segments with word times: each word plays from its own time, the word being played is marked", async ({
  page,
}) => {
  // The transcript the Transcribe form receives gets word times, evenly spread over each segment (which
  // sources time words is tested beside their parsers); the view draws what it is given.
  await fakePlayer(page, 20);
  await page.setViewportSize(DESKTOP);
  await devLogin(page, randomEmail("reading-words"));
  let timed: { start: number; end: number; text: string; words: { start: number; end: number; text: string }[] }[] = [];
  await page.route("**/v1/transcript", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    timed = (body.segments as PublicSegment[]).map((segment) => {
      const texts = segment.text.split(/\s+/).filter(Boolean);
      const step = (segment.end - segment.start) / texts.length;
      const words = texts.map((text, k) => ({
        start: Math.round((segment.start + k * step) * 1000) / 1000,
        end: Math.round((segment.start + (k + 1) * step) * 1000) / 1000,
        text,
      }));
      return { ...segment, words };
    });
    await route.fulfill({ response, json: { ...body, segments: timed } });
  });
  await page.getByLabel("Video or audio link").fill(WATCH_URL);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("paragraph").first()).toBeVisible();

  // The player reports 20 s: the word spoken then is marked, not its cue.
  const segment = timed.findLastIndex((s) => s.start <= 20.25);
  const word = timed[segment].words.findLastIndex((w) => w.start <= 20.25);
  const cue = page.locator(`[id="t${Math.floor(timed[segment].start)}-${segment}"]`);
  await expect(cue.locator(`[data-w="${word}"]`)).toHaveAttribute("aria-current", "true");
  await expect(page.locator(".reading [aria-current=true]")).toHaveCount(1);
  await expect(cue).not.toHaveAttribute("data-playing");

  // A click on another word seeks the player to that word's time.
  const target = timed.findIndex((s, i) => i > segment && s.words.length >= 2);
  const targetCue = page.locator(`[id="t${Math.floor(timed[target].start)}-${target}"]`);
  await targetCue.locator('[data-w="1"]').click();
  const received = page.frameLocator('[data-testid="transcript-player"]').locator("#received li");
  const seek = received.filter({ hasText: "seekTo" });
  await expect(seek).toHaveCount(1);
  expect(JSON.parse((await seek.textContent())!).args).toEqual([timed[target].words[1].start, true]);
});

test("a public page with word times: each word plays from its own time, the word being played is marked", async ({
  page,
}) => {
  // The publisher's correction gives the fake's captions word times (PATCH keeps the words it is sent), evenly
  // spread over each segment; the public page shows the publisher's view.
  await fakePlayer(page, 20);
  await page.setViewportSize(DESKTOP);
  await devLogin(page, randomEmail("public-words"));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  const { id, segments } = (await made.json()) as { id: string; segments: PublicSegment[] };
  const timed = segments.map((segment) => {
    const texts = segment.text.split(" ");
    const step = (segment.end - segment.start) / texts.length;
    const words = texts.map((text, k) => ({
      start: Math.round((segment.start + k * step) * 1000) / 1000,
      end: Math.round((segment.start + (k + 1) * step) * 1000) / 1000,
      text,
    }));
    return { ...segment, words };
  });
  const corrected = await page.request.patch(`/v1/transcripts/${id}`, { data: { segments: timed } });
  expect(corrected.status(), await corrected.text()).toBe(200);
  const publish = await page.request.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } });
  expect(publish.status()).toBe(200);
  const slug = (await publish.json()).slug as string;
  // The cached page's HTML has no word spans (nothing seeks without JavaScript), only their times.
  expect(await (await page.request.get(`/t/${slug}`)).text()).not.toContain("data-w=");

  await page.goto(`/t/${slug}`);
  // The player reports 20 s: the word spoken then is marked, not its cue.
  const segment = timed.findLastIndex((s) => s.start <= 20.25);
  const word = timed[segment].words.findLastIndex((w) => w.start <= 20.25);
  const cue = page.locator(`[id="t${Math.floor(timed[segment].start)}-${segment}"]`);
  await expect(cue.locator(`[data-w="${word}"]`)).toHaveAttribute("aria-current", "true");
  await expect(cue.locator(`[data-w="${word}"]`)).toHaveText(timed[segment].words[word].text);
  await expect(page.locator(".reading [aria-current=true]")).toHaveCount(1);
  await expect(cue).not.toHaveAttribute("data-playing");

  // A click on another word seeks the player to that word's time (sent to the centisecond).
  const target = timed.findIndex((s, i) => i > segment && s.words.length >= 3);
  const targetCue = page.locator(`[id="t${Math.floor(timed[target].start)}-${target}"]`);
  await targetCue.locator('[data-w="2"]').click();
  const received = page.frameLocator('[data-testid="public-player"]').locator("#received li");
  const seek = received.filter({ hasText: "seekTo" });
  await expect(seek).toHaveCount(1);
  const [seconds, allowAhead] = JSON.parse((await seek.textContent())!).args as [number, boolean];
  expect(allowAhead).toBe(true);
  expect(Math.abs(seconds - timed[target].words[2].start)).toBeLessThanOrEqual(0.005);
  expect(seconds).not.toBe(timed[target].start);
});

test("axe and contrast in both schemes: the public reading view, the dashboard's, Explore's search notes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await fakePlayer(page);
  const { id, slug, segments } = await published(page, "reading-axe");
  const index = farSegment(segments);
  const pages = [
    `/t/${slug}#t${Math.floor(segments[index].start)}-${index}`,
    `/dashboard?transcript=${id}&t=${Math.round(segments[index].start * 1000) / 1000}`,
    "/explore?q=fungus",
    "/explore?q=zzqxv",
  ];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    if (!path.startsWith("/explore")) await expect(page.locator(".reading [data-moment]")).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, path);
  }
  // Explore's notes agree with its moments: a search that found moments (no title says "fungus") says so.
  await page.goto("/explore?q=fungus");
  await expect(page.getByTestId("explore-moment").first()).toBeVisible();
  await expect(page.getByTestId("explore-empty")).toContainText("No title has “fungus” in it; the moment");
  await page.goto("/explore?q=zzqxv");
  await expect(page.getByTestId("explore-moments")).toHaveCount(0);
  await expect(page.getByTestId("explore-empty")).toContainText("Nothing published has “zzqxv”");
});
