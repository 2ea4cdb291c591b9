import { expect, type Locator, type Page } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { WATCH_URL } from "./pages-world";

// What only a browser shows of a transcript's first screen and its player: on a phone the text starts on the
// first screen (dashboard and public page); a moment from History lands below everything pinned; on a wide
// screen the find box stays in view while stepping through matches, and the public page has its player beside
// the text; the player's keys (and their help dialog), never while typing; sharing a public page and a moment.

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 800 };

/** The embedded YouTube player: lists the commands it receives; reports 0 s and its state as the real widget does. */
async function fakePlayer(page: Page) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><ol id="received"></ol><script>let playerState = 5; addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.event === "command") {
          const item = document.createElement("li"); item.textContent = message.func + " " + JSON.stringify(message.args); document.getElementById("received").append(item);
        }
        const state = message.func === "playVideo" ? 1 : message.func === "pauseVideo" ? 2 : null;
        if (message.event === "listening") parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { currentTime: 0, playerState } }), "*");
        if (state !== null) { playerState = state; parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { playerState } }), "*"); }
      });</script>`,
    }),
  );
}

/** Signs in, transcribes the fake's captioned video and publishes it: its id, slug and segments. */
async function published(page: Page) {
  await devLogin(page, randomEmail("first-screen"));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  const { id, segments } = (await made.json()) as { id: string; segments: { start: number; text: string }[] };
  const publish = await page.request.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } });
  expect(publish.status()).toBe(200);
  return { id, slug: (await publish.json()).slug as string, segments };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "element has a box").not.toBeNull();
  return found!;
}

/** The lowest bottom edge of what is pinned (sticky, at the top) above `target`'s column. */
async function pinnedBottom(page: Page, target: Locator): Promise<number> {
  const rect = await box(target);
  return page.evaluate(
    ({ left, right }) => {
      let bottom = 0;
      for (const element of document.querySelectorAll<HTMLElement>("[data-pinned]")) {
        if (getComputedStyle(element).position !== "sticky") continue;
        const r = element.getBoundingClientRect();
        if (r.right <= left || r.left >= right || r.bottom <= 0) continue;
        bottom = Math.max(bottom, r.bottom);
      }
      return bottom;
    },
    { left: rect.x, right: rect.x + rect.width },
  );
}

/** Lines of the transcript's text (its cues' line boxes) wholly on the first screen, below everything pinned. */
async function textLinesOnScreen(page: Page): Promise<number> {
  return page.evaluate(() => {
    const tops = new Set<number>();
    for (const cue of document.querySelectorAll('[data-testid="reading-view"] p > span[id]')) {
      const range = document.createRange();
      range.selectNodeContents(cue);
      for (const rect of range.getClientRects())
        if (rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight) tops.add(Math.round(rect.top / 4));
    }
    return tops.size;
  });
}

/** The commands the fake player has received. */
const received = (page: Page) => page.frameLocator("iframe[src*='youtube-nocookie']").locator("#received li");

test("on a phone the first screen reaches the transcript's text, on the dashboard and the public page", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(PHONE);
  const { id, slug } = await published(page);
  for (const path of [`/dashboard?transcript=${id}`, `/t/${slug}`]) {
    await page.goto(path);
    const firstCue = page.getByTestId("reading-view").locator("p > span[id]").first();
    await expect(firstCue).toBeVisible();
    expect(await page.evaluate(() => window.scrollY), path).toBe(0);
    const cue = await box(firstCue);
    expect(cue.y + Math.min(cue.height, 32), `${path}: first line on the first screen`).toBeLessThanOrEqual(
      PHONE.height,
    );
    expect(await textLinesOnScreen(page), `${path}: lines of text on the first screen`).toBeGreaterThanOrEqual(4);
  }
  // The details and downloads are one tap away on the dashboard.
  await page.goto(`/dashboard?transcript=${id}`);
  await expect(page.getByTestId("transcript-downloads")).toBeHidden();
  await page.getByTestId("transcript-details-toggle").click();
  await expect(page.getByTestId("download-txt")).toBeVisible();
  await expect(page.getByTestId("transcript-platform")).toHaveText("YouTube");
});

test("on a phone the editor's pinned toolbar sits below the pinned player: a tap on Save hits Save", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(PHONE);
  const { id } = await published(page);
  await page.goto(`/dashboard?transcript=${id}`);
  await page.getByTestId("edit-transcript").click();
  const save = page.getByTestId("editor-save");
  await expect(save).toBeVisible();
  // Scrolled down the lines: the toolbar is pinned, under the player.
  await page.mouse.wheel(0, 1500);
  await expect(async () => {
    const toolbar = await box(page.getByTestId("editor-toolbar"));
    const player = await box(page.getByTestId("player-pane"));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(toolbar.y, "the toolbar below the player").toBeGreaterThanOrEqual(player.y + player.height - 1);
    const at = await box(save);
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid="editor-save"]') !== null,
      { x: at.x + at.width / 2, y: at.y + at.height / 2 },
    );
    expect(hit, "the element under Save's centre is Save").toBe(true);
  }).toPass();
});

test("on a phone, History's moment lands with its first line below the pinned player and search bar", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(PHONE);
  const { id, segments } = await published(page);
  // From the middle: a moment the page can scroll to the top of the screen.
  const index = Math.floor(segments.length / 2);
  const start = segments[index].start;
  await page.goto(`/dashboard?${new URLSearchParams({ transcript: id, t: String(start) })}`);
  const cue = page.locator(`[id="t${Math.floor(start)}-${index}"]`);
  await expect(cue).toHaveAttribute("data-moment", "true");
  await expect(async () => {
    const [rect, covered] = [await box(cue), await pinnedBottom(page, cue)];
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(covered).toBeGreaterThan(0);
    expect(rect.y, "the moment's first line below everything pinned").toBeGreaterThanOrEqual(covered);
    expect(rect.y).toBeLessThanOrEqual(PHONE.height / 2);
  }).toPass();
});

test("on a wide screen the find box and its count stay in view while stepping through matches", async ({ page }) => {
  await fakePlayer(page);
  await page.setViewportSize(WIDE);
  const { id } = await published(page);
  await page.goto(`/dashboard?transcript=${id}`);
  const search = page.getByTestId("transcript-search");
  const count = page.getByTestId("search-count");
  // Text typed before the page has hydrated is reset by React's controlled input: type again until it counts.
  await expect(async () => {
    await search.fill("the");
    await expect(count).toHaveText(/^1 of \d+$/, { timeout: 2000 });
  }).toPass();
  const total = Number(/of (\d+)/.exec((await count.textContent()) ?? "")![1]);
  // Step on until the page has scrolled well down (the matches below the first screen): the first step by the next
  // button, the rest by Enter in the box (a click lands where the button was, and while the page scrolls to the
  // match and the box is being pinned, that can be beside it).
  for (let i = 2; i <= total; i++) {
    await (i === 2 ? page.getByTestId("search-next").click() : search.press("Enter"));
    await expect(count).toHaveText(`${i} of ${total}`);
    if ((await page.evaluate(() => window.scrollY)) > 400) break;
  }
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  for (const element of [search, count]) {
    const rect = await box(element);
    expect(rect.y).toBeGreaterThanOrEqual(0);
    expect(rect.y + rect.height).toBeLessThanOrEqual(WIDE.height);
  }
  // The current match is not under the pinned find box.
  const current = page.locator("mark[data-current]");
  await expect(async () => {
    expect((await box(current)).y).toBeGreaterThanOrEqual(await pinnedBottom(page, current));
  }).toPass();
});

test("a public page on a wide screen: the player beside the text, and lines of it on the first screen", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(WIDE);
  const { slug } = await published(page);
  await page.goto(`/t/${slug}`);
  const [player, text] = [await box(page.getByTestId("public-player")), await box(page.getByTestId("reading-view"))];
  expect(player.x + player.width, "beside").toBeLessThanOrEqual(text.x);
  expect(text.y + 5 * 32, "at least five lines above the fold").toBeLessThanOrEqual(WIDE.height);
});

test("the player's keys on the public page and the dashboard, never while typing; ? lists them in a dialog", async ({
  page,
}) => {
  await fakePlayer(page);
  await page.setViewportSize(WIDE);
  const { id, slug } = await published(page);
  for (const path of [`/t/${slug}`, `/dashboard?transcript=${id}`]) {
    await page.goto(path);
    // A command posted before the frame's document has loaded is lost (its origin is not yet the player's), as it
    // would be for a person pressing a key that early: wait for the player to be there.
    await expect(page.frameLocator("iframe[src*='youtube-nocookie']").locator("#received")).toBeAttached();
    await expect(received(page)).toHaveCount(0);
    // A key pressed before the page has hydrated goes unheard: ? until its dialog opens says the keys are heard.
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(async () => {
      await page.keyboard.press("Shift+Slash");
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.keyboard.press("k");
    await expect(received(page).last()).toHaveText("playVideo []");
    await page.keyboard.press("l");
    await expect(received(page).last()).toHaveText("seekTo [5,true]");
    // The player said it plays: k pauses.
    await page.keyboard.press("k");
    await expect(received(page).last()).toHaveText("pauseVideo []");
    await page.keyboard.press("j");
    await expect(received(page).last()).toHaveText("seekTo [0,true]");
    const sent = await received(page).count();

    // Typing in the search box is typing.
    await page.getByTestId("transcript-search").fill("");
    await page.getByTestId("transcript-search").pressSequentially("kjl ");
    await expect(page.getByTestId("transcript-search")).toHaveValue("kjl ");
    await page.getByTestId("transcript-search").press("?");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await received(page).count()).toBe(sent);

    // ? from the page: the dialog, focus inside, Escape closes it and gives focus back.
    await page.getByTestId("transcript-search").blur();
    await page.keyboard.press("Shift+Slash");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Back 5 seconds");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("k");
    expect(await received(page).count()).toBe(sent);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
});

test("a public page shares itself and a moment: the share sheet where there is one, else the clipboard", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await fakePlayer(page);
  const { slug, segments } = await published(page);
  const index = 3;
  const anchor = `t${Math.floor(segments[index].start)}-${index}`;

  // No share sheet (desktop Chromium on Linux): the link is copied.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "share", { value: undefined, configurable: true });
  });
  await page.goto(`/t/${slug}#${anchor}`);
  await page.getByTestId("share-page").click();
  await expect(page.getByTestId("share-status")).toHaveText("Link copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/t/${slug}$`));
  await page.getByTestId("share-moment").click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toMatch(new RegExp(`/t/${slug}#${anchor}$`));

  // A share sheet: it gets the page's title and the moment's address.
  const phone = hydrating(await context.newPage());
  await fakePlayer(phone);
  await phone.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { shared });
    Object.defineProperty(navigator, "share", {
      value: async (data: ShareData) => void shared.push(data),
      configurable: true,
    });
  });
  await phone.setViewportSize(PHONE);
  await phone.goto(`/t/${slug}#${anchor}`);
  await phone.getByTestId("share-moment").click();
  await expect(phone.getByTestId("share-status")).toHaveText("Shared");
  const shared = await phone.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
  expect(shared).toHaveLength(1);
  expect(shared[0].url).toMatch(new RegExp(`/t/${slug}#${anchor}$`));
  expect(shared[0].title).toBe(await phone.getByTestId("public-title").textContent());
});
