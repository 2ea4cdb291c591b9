import { expect, type BrowserContext, type Locator, type Page, type Route } from "@playwright/test";
import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { WATCH_URL } from "./pages-world";

// Nothing done before a page hydrates is lost: the viewer's controls are links and a form the server renders (Edit,
// a paragraph's Edit, a timestamp, Publish), which work as such before the page's scripts run; the server's HTML
// shows a control whose only handler is React's as inactive until React owns it; and what was typed into a box
// before then is still there, and used, after. The page's scripts are held until the test has acted, then released:
// no sleeps, and no slowed CPU either (the hold alone keeps every action before hydration, on any machine).

/** A page of its own, not one whose goto waits for hydration (fixtures.ts): its script chunks held until released. */
async function pageBeforeHydration(context: BrowserContext): Promise<{ page: Page; release: () => Promise<void> }> {
  const page = await context.newPage();
  const held: Route[] = [];
  let released = false;
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    if (released) await route.continue();
    else held.push(route);
  });
  const release = async () => {
    released = true;
    await Promise.all(held.splice(0).map((route) => route.continue()));
  };
  return { page, release };
}

test("typed before hydration is kept and used; the filters and Follow wait, visibly, for their handlers", async ({
  page,
  context,
}) => {
  await devLogin(page, randomEmail("hydration"));

  const history = await pageBeforeHydration(context);
  await history.page.goto("/dashboard/history", { waitUntil: "domcontentloaded" });
  await expect(history.page.getByTestId("history-platform")).toBeDisabled();
  await expect(history.page.getByTestId("history-state")).toBeDisabled();
  await history.page.getByTestId("history-search").pressSequentially("interview");
  await history.release();
  // Once hydrated the typed words are the search: debounced into the address, still in the box.
  await expect(history.page).toHaveURL(/[?&]q=interview(&|$)/);
  await expect(history.page.getByTestId("history-search")).toHaveValue("interview");
  await expect(history.page.getByTestId("history-platform")).toBeEnabled();

  const imports = await pageBeforeHydration(context);
  await imports.page.goto("/dashboard/imports", { waitUntil: "domcontentloaded" });
  const follow = imports.page.getByTestId("follow-submit");
  await expect(follow).toBeDisabled();
  const feed = "https://feeds.example.invalid/typed-early.xml";
  await imports.page.getByLabel(/Follow a show/).pressSequentially(feed);
  await imports.release();
  await expect(follow).toBeEnabled();
  const posted = imports.page.waitForRequest(
    (request) => request.method() === "POST" && request.url().endsWith("/v1/follows"),
  );
  await follow.click();
  expect((await posted).postDataJSON()).toEqual({ url: feed });
});

test("text typed while the address catches up with what was typed before is kept", async ({ page }) => {
  await devLogin(page, randomEmail("history-catch-up"));
  // The search box's debounce runs on the page's clock, paused: the address is asked for only when the test says.
  await page.clock.install();
  await page.goto("/dashboard/history");
  // Time stands still until the test moves it: on a busy machine, typing "view" must not outlast the debounce.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
  const search = page.getByTestId("history-search");
  // The navigation to the first words is held until more have been typed, as a slow machine holds it.
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/dashboard\/history\?q=inter(&|$)/, (route) =>
    holding ? void held.push(route) : void route.continue(),
  );
  await search.pressSequentially("inter");
  await page.clock.runFor(1_000);
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await search.pressSequentially("view");
  holding = false;
  await Promise.all(held.map((route) => route.continue()));
  await expect(page).toHaveURL(/[?&]q=inter(&|$)/);
  await expect(search).toHaveValue("interview");
  await page.clock.runFor(1_000);
  await expect(page).toHaveURL(/[?&]q=interview(&|$)/);
  await expect(search).toHaveValue("interview");
});

/** Whether React owns the element yet (its props are attached once hydrated). */
function hydrated(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$")));
}

// The page's scripts are held until the press is done, so every press lands before hydration: one try of each
// control shows what many would.
const TRIES = 1;

test("the viewer's Edit, a paragraph's Edit, a timestamp and Publish, pressed the moment they show, all take effect", async ({
  page,
  context,
}) => {
  await context.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
  await devLogin(page, randomEmail("early-press"));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  const { id } = (await made.json()) as { id: string };
  const address = `/dashboard?transcript=${id}`;

  // Each press on a page whose scripts are held: what it did is read from the page the server rendered after it.
  const presses: Record<string, (early: Page) => Promise<void>> = {
    edit: async (early) => {
      const edit = early.getByTestId("edit-transcript");
      expect(await hydrated(edit)).toBe(false);
      await edit.click();
      await expect(early).toHaveURL(/[?&]edit=all(&|$)/);
      await expect(early.getByTestId("editor-lines").locator("textarea").first()).toBeVisible();
    },
    "paragraph edit": async (early) => {
      const second = early.getByTestId("paragraph").nth(1);
      const first = (await second.locator("span[id]").first().textContent())!.trim().split(/\s+/)[0];
      const edit = second.getByTestId("paragraph-edit");
      expect(await hydrated(edit)).toBe(false);
      await edit.click();
      await expect(early).toHaveURL(/[?&]edit=1(&|$)/);
      // The editor holds that paragraph's text (from its first word).
      await expect(early.getByTestId("paragraph-editor").locator("textarea")).toHaveValue(
        new RegExp(`^\\s*${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
    },
    timestamp: async (early) => {
      const second = early.getByTestId("paragraph").nth(1);
      const cue = await second.locator("span[id]").first().getAttribute("id");
      const stamp = second.getByRole("link", { name: /^Play from / });
      const seconds = new URL((await stamp.getAttribute("href"))!, "http://x").searchParams.get("t")!;
      expect(await hydrated(stamp)).toBe(false);
      await stamp.click();
      await expect(early).toHaveURL(new RegExp(`[?&]t=${seconds.replace(".", "\\.")}(&|$)`));
      // The moment is marked, and the player starts there.
      await expect(early.locator(".reading [data-moment]")).toHaveAttribute("id", cue!);
      const start = Math.floor(Number(seconds));
      if (start > 0)
        await expect(early.getByTestId("transcript-player")).toHaveAttribute(
          "src",
          new RegExp(`[?&]start=${start}(&|$)`),
        );
    },
    publish: async (early) => {
      const publish = early.getByTestId("publish-button");
      expect(await hydrated(publish)).toBe(false);
      await publish.click();
      await expect(early).toHaveURL(/[?&]published=[a-z0-9-]+(&|$)/);
      await expect(early.getByTestId("published-link")).toBeVisible();
      const slug = new URL(early.url()).searchParams.get("published")!;
      expect((await page.request.get(`/v1/public/${slug}`)).status()).toBe(200);
      // Off again, so that the next press has something to do.
      expect((await page.request.delete(`/v1/publish/${slug}`)).status()).toBe(204);
    },
  };

  const took: Record<string, number> = {};
  for (const [control, press] of Object.entries(presses)) {
    took[control] = 0;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const early = await pageBeforeHydration(context);
      await early.page.goto(address, { waitUntil: "commit" });
      try {
        await press(early.page);
        took[control] += 1;
      } catch (error) {
        console.log(`${control}, press ${attempt + 1}: ${(error as Error).message.split("\n")[0]}`);
      }
      await early.page.close();
    }
  }
  const total = Object.values(took).reduce((sum, n) => sum + n, 0);
  console.log(
    `Pressed before hydration: ${Object.entries(took)
      .map(([control, n]) => `${control} ${n} of ${TRIES}`)
      .join(", ")}; ${total} of ${TRIES * Object.keys(presses).length} in all`,
  );
  expect(took).toEqual(Object.fromEntries(Object.keys(presses).map((control) => [control, TRIES])));
});
