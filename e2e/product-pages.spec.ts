import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { WATCH_URL, stubThirdParties } from "./pages-world";

// In Chromium, in both colour schemes and at a laptop's and a phone's size: the transcript leads its page
// (title on top, player in view, search that jumps and stays pinned, a menu that closes, timestamps as one Tab
// stop, 44 px targets, a skip link); the home page invites; every page carries the brand; the phone's nav
// reaches every page. Every page's colour contrast, in both schemes, is all-pages.spec.ts's.

const SIZES = [
  { name: "laptop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

// Every test of this file makes its own user, so they may run in any worker.
test.describe.configure({ mode: "parallel" });

// The behaviour below does not depend on the colour scheme (all-pages.spec.ts checks the colours in both
// schemes): each size runs once, the laptop in the light scheme and the phone in the dark, so both schemes
// still carry every journey without running the same steps once per scheme and size.
const RUNS = [
  { scheme: "light", size: SIZES[0] },
  { scheme: "dark", size: SIZES[1] },
] as const;

for (const { scheme, size } of RUNS) {
  test.describe(`${scheme}, ${size.name}`, () => {
    test.use({ colorScheme: scheme, viewport: { width: size.width, height: size.height } });
    const phone = size.name === "phone";

    test("the transcript leads: title on top, one Tab stop for the timestamps, a menu that closes, search that jumps, targets to touch", async ({
      page,
    }) => {
      await stubThirdParties(page);
      await devLogin(page, randomEmail("lead"));
      const id = (await (await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } })).json())
        .id as string;
      await page.goto(`/dashboard?transcript=${id}`);
      await expect(page.getByTestId("paragraph").first()).toBeVisible();

      // The title is the page's heading, at the top; the form to transcribe another comes after the transcript.
      const h1 = page.getByRole("heading", { level: 1 });
      await expect(h1).toHaveCount(1);
      await expect(h1).toHaveAttribute("data-testid", "transcript-title");
      expect((await h1.boundingBox())!.y).toBeLessThan(phone ? 260 : 200);
      const formAfter = await page.evaluate(() => {
        const viewer = document.querySelector("[data-testid=transcript-viewer]")!;
        const form = document.querySelector("form[aria-label='Transcribe a link or a file']")!;
        return Boolean(viewer.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(formAfter).toBe(true);

      // A skip link is the first Tab stop.
      await page.keyboard.press("Tab");
      await expect(page.getByTestId("skip-link")).toBeFocused();

      // Timestamps (the reading view's paragraphs' and chapters'): one Tab stop, arrow keys within.
      const stamps = page.getByTestId("reading-view").locator("[data-roving]");
      expect(await stamps.count()).toBeGreaterThan(3);
      await expect(page.getByTestId("reading-view").locator('[data-roving][tabindex="0"]')).toHaveCount(1);
      await stamps.first().focus();
      await page.keyboard.press("ArrowDown");
      await expect(stamps.nth(1)).toBeFocused();
      await page.keyboard.press("End");
      await expect(stamps.last()).toBeFocused();
      await expect(page.getByTestId("reading-view").locator('[data-roving][tabindex="0"]')).toHaveCount(1);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=reading-view]") === null)).toBe(
        true,
      );

      // "Other formats" closes on Escape (focus back on its button), on a click outside, and when focus moves on.
      // On a phone the downloads sit behind "Details & downloads".
      if (phone) await page.getByTestId("transcript-details-toggle").click();
      const more = page.getByTestId("download-more");
      const menu = page.getByTestId("download-menu");
      await more.click();
      await expect(menu).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(more).toBeFocused();
      await more.click();
      await expect(menu).toBeVisible();
      await page.getByTestId("transcript-title").click();
      await expect(menu).toBeHidden();
      await more.click();
      await expect(menu).toBeVisible();
      await page.getByTestId("transcript-search").focus();
      await expect(menu).toBeHidden();

      // Search jumps to the first match as it is typed; the match is on screen, below what is pinned.
      await page.getByTestId("transcript-search").fill("gummy");
      const match = page.locator("mark[data-match='0']");
      await expect(match).toBeInViewport();
      if (phone) {
        // Pinned under the sticky player while the page scrolls.
        const toolbar = page.getByTestId("transcript-toolbar");
        const pane = page.getByTestId("player-pane");
        // Once the scroll has settled: the player stuck at the top, the search bar right under it, the match below both.
        await expect
          .poll(async () => {
            const [bar, player, mark] = [
              (await toolbar.boundingBox())!,
              (await pane.boundingBox())!,
              (await match.boundingBox())!,
            ];
            return (
              Math.abs(player.y) < 2 &&
              Math.abs(bar.y - (player.y + player.height)) < 2 &&
              mark.y >= bar.y + bar.height - 1 &&
              mark.y + mark.height <= size.height
            );
          })
          .toBe(true);
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

        // Every visible control of the viewer is at least 44 px tall (and timestamps as wide).
        await page.evaluate(() => window.scrollTo(0, 0));
        const small = await page.evaluate(() =>
          Array.from(
            document.querySelectorAll<HTMLElement>(
              "[data-testid=transcript-viewer] :is(a, button, input, summary, [role=tab])",
            ),
          )
            .filter(
              (element) =>
                element.offsetParent !== null &&
                getComputedStyle(element).visibility !== "hidden" &&
                !element.classList.contains("sr-only"),
            )
            .filter(
              (element) =>
                element.getBoundingClientRect().height < 44 &&
                !(element instanceof HTMLInputElement && element.type === "checkbox"),
            )
            .map(
              (element) =>
                `${element.tagName} "${element.textContent?.trim().slice(0, 30)}" ${element.getBoundingClientRect().height}px`,
            ),
        );
        expect(small).toEqual([]);
      }
    });

    test("no surprise charges: the languages the video has, and recognition asked for with its cost", async ({
      page,
    }) => {
      await devLogin(page, randomEmail("charges"));
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/transcript")
          posts.push(request.postData() ?? "");
      });
      // A language the captioned video lacks: its languages are offered, nothing is sent until one is chosen.
      await page.getByLabel("Video or audio link").fill(WATCH_URL);
      await page.getByLabel("Language").fill("fr");
      await page.getByTestId("transcribe-submit").click();
      const prompt = page.getByTestId("recognition-prompt");
      await expect(prompt).toBeVisible();
      await expect(prompt.getByTestId("available-languages")).toContainText("English");
      await expect(prompt.getByTestId("recognition-cost")).toHaveText(
        /about \d+ min of your allowance \(\d[\d,]* min left this period\)/,
      );
      expect(posts).toEqual([]);
      await prompt
        .getByTestId("use-language")
        .filter({ hasText: /^English/ })
        .first()
        .click();
      await expect(page.getByTestId("transcript-lang")).toHaveText("en");
      expect(posts).toHaveLength(1);

      // No captions at all: recognition only once confirmed.
      await page.getByLabel("Video or audio link").fill(`https://www.youtube.com/watch?v=${FAKE_IDS.noCaptions}`);
      await page.getByLabel("Language").fill("en");
      await page.getByTestId("transcribe-submit").click();
      await expect(prompt).toContainText("no captions at all");
      expect(posts).toHaveLength(1);
      await prompt.getByTestId("confirm-recognition").click();
      await expect(page.getByTestId("job-panel")).toBeVisible();
      expect(posts).toHaveLength(2);
      // No job ids shown to the user.
      await expect(page).toHaveURL(/job=[\w-]+$/);
      const jobId = new URL(page.url()).searchParams.get("job")!;
      await expect(page.getByTestId("job-panel")).not.toContainText(jobId);
    });

    test("home invites, every page carries the brand and a way back, the consent page names the service, the phone nav reaches every page", async ({
      page,
    }) => {
      await stubThirdParties(page);
      // Home: a header with sign-in, one line on what it does, a link box with a sample.
      await page.goto("/");
      await expect(page.getByRole("banner").getByTestId("brand")).toBeVisible();
      await expect(page.getByTestId("header-sign-in")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("transcripts");
      await expect(page.getByTestId("home-sample")).toBeVisible();
      // A link typed there is transcribed after sign-in.
      await page.getByTestId("home-url").fill(WATCH_URL);
      await page.getByTestId("home-submit").click();
      await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
      const email = randomEmail("home");
      await page.getByLabel(/development login/i).fill(email);
      await page.getByRole("button", { name: "Sign in (development)" }).click();
      await expect(page.getByTestId("transcript-title")).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\?url=https%3A(\/\/|%2F%2F)www\.youtube\.com/);

      // Public pages and the OAuth pages: the brand links home.
      const slug = (await (await page.request.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } })).json())
        .slug as string;
      const device = await (await page.request.post("/v1/device/code", { form: { client_id: "verbatim-cli" } })).json();
      const client = await (
        await page.request.post("/oauth/register", {
          data: { redirect_uris: ["http://127.0.0.1:9/callback"], client_name: "Brand Connector" },
        })
      ).json();
      const consent = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: "http://127.0.0.1:9/callback", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", state: "s", scope: "api" })}`;
      for (const path of [`/t/${slug}`, "/explore", `/device?user_code=${device.user_code}`, consent]) {
        await page.goto(path);
        await expect(page.getByRole("banner").getByTestId("brand"), path).toHaveAttribute("href", "/");
        await expect(
          page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Dashboard" }),
          path,
        ).toBeVisible();
      }
      await expect(page.getByTestId("consent-service")).toHaveText(/Verbatim/);
      await expect(page.locator("main")).not.toContainText("/v1");

      // The public page's player stays in view while the text scrolls.
      await page.goto(`/t/${slug}`);
      await page.getByTestId("paragraph").last().scrollIntoViewIfNeeded();
      await expect(page.getByTestId("public-player")).toBeInViewport();
      await expect(page.getByTestId("reading-view").locator('[data-roving][tabindex="0"]')).toHaveCount(1);

      // The dashboard's nav: every page in sight, the current one whole; on Keys, Copy command does not cover the command.
      await page.goto("/dashboard/billing");
      const nav = page.getByRole("navigation", { name: "Dashboard" });
      // On a phone the pages sit behind the menu button that names the current one.
      if (phone) await page.getByTestId("dashboard-menu").click();
      for (const name of [
        "Transcribe",
        "History",
        "Imports",
        "Published",
        "Billing",
        "API key",
        "Alerts",
        "Exports",
        "Webhooks",
      ]) {
        const box = (await nav.getByRole("link", { name, exact: true }).boundingBox())!;
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(size.width);
        if (phone) expect(box.height, name).toBeGreaterThanOrEqual(44);
      }
      await expect(nav.getByRole("link", { name: "Billing" })).toHaveAttribute("aria-current", "page");
      await page.goto("/dashboard/keys");
      await page.getByRole("button", { name: "Create key" }).click();
      const command = (await page.getByTestId("curl").boundingBox())!;
      const copy = (await page.getByTestId("copy-curl").boundingBox())!;
      const overlaps =
        copy.x < command.x + command.width &&
        command.x < copy.x + copy.width &&
        copy.y < command.y + command.height &&
        command.y < copy.y + copy.height;
      expect(overlaps).toBe(false);
    });
  });
}
