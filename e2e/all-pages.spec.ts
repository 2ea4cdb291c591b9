import { expect } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { contrastProblems, toDarkScheme } from "./contrast";
import { axeScan } from "./helpers";
import { makeWorld, productPages, stubThirdParties, type World } from "./pages-world";

// Every page, at a laptop's and a phone's size: no sideways scroll (the document is no wider than the window), no
// console error, a title. At the laptop's size a full axe scan (no serious or critical violation), which is also the
// light scheme's colour-contrast check, axe's needs-review results counted (e2e/contrast.ts), then the same page
// switched to the dark scheme and scanned for contrast alone. Each page is loaded once and scanned once per scheme
// (docs/testing.md): the phone's size is the same page resized, since the pages follow the window's width live (CSS
// media queries, and the one width read in script, the history table's, through matchMedia), and it gets the cheap
// layout checks, not a second axe run of the same markup.
// E2E_PAGES_SKIP (comma list of names) leaves pages out while one is being reworked.

const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

const skipped = new Set([
  ...(process.env.E2E_PAGES_SKIP ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
]);

/** Every page but those E2E_PAGES_SKIP names. */
function pages(world: World) {
  return productPages(world).filter((entry) => !skipped.has(entry.name));
}

test("every page fits a laptop and a phone, logs no error, has a title and passes axe (no serious or critical) and colour contrast in both schemes", async ({
  browser,
}) => {
  // Every page with axe in both schemes: a minute or more on two cores.
  test.setTimeout(480_000);
  const signedIn = await browser.newContext();
  const setup = hydrating(await signedIn.newPage());
  const world = await makeWorld(setup, "pages");
  await setup.close();
  const signedOut = await browser.newContext();
  const problems: string[] = [];

  for (const entry of pages(world)) {
    const page = hydrating(await (entry.signedOut ? signedOut : signedIn).newPage());
    await stubThirdParties(page);
    const errors: string[] = [];
    page.on("console", (message) => {
      // A 404 page's own status is logged by Chromium as a failed load: that one is the point of the page.
      const ownStatus = entry.name === "not-found" && message.location().url.endsWith(entry.path);
      if (message.type() === "error" && !ownStatus) errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const ready = async () => {
      await expect(entry.ready(page)).toBeVisible();
      if (entry.search) await page.getByTestId("transcript-search").fill(entry.search);
      // Nothing scrolled under the sticky player: the contrast check sees each element on its own background.
      await page.evaluate(() => window.scrollTo(0, 0));
    };
    const layoutChecks = async (where: string) => {
      // After a resize, the next frame has laid the page out at the new width.
      const { scrollWidth, clientWidth } = await page.evaluate(
        () =>
          new Promise<{ scrollWidth: number; clientWidth: number }>((resolve) =>
            requestAnimationFrame(() =>
              resolve({
                scrollWidth: document.documentElement.scrollWidth,
                clientWidth: document.documentElement.clientWidth,
              }),
            ),
          ),
      );
      if (scrollWidth > clientWidth) problems.push(`${where}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
    };

    await page.setViewportSize(LAPTOP);
    await page.goto(entry.path);
    await ready();
    const where = `${entry.name} at ${LAPTOP.width}px`;
    await layoutChecks(where);
    const title = await page.title();
    if (!/\S/.test(title) || (entry.name !== "home" && title === "Verbatim"))
      problems.push(`${entry.name}: title "${title}"`);

    const scan = await axeScan(page).analyze();
    // Contrast violations come with the contrast problems below.
    const serious = scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    for (const violation of serious.filter((v) => v.id !== "color-contrast")) {
      problems.push(
        `${where}: axe ${violation.impact} ${violation.id} (${violation.help}) at ${violation.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
      );
    }
    problems.push(...(await contrastProblems(page, where, scan)));
    // The dark scheme's contrast on the same page.
    if (!(await toDarkScheme(page))) {
      await page.reload();
      await ready();
    }
    const dark = await axeScan(page).withRules(["color-contrast"]).analyze();
    problems.push(...(await contrastProblems(page, `${where}, dark`, dark)));

    await page.setViewportSize(PHONE);
    await layoutChecks(`${entry.name} at ${PHONE.width}px`);
    for (const error of errors) problems.push(`${entry.name}: console error ${error}`);
    await page.close();
  }
  await Promise.all([signedIn.close(), signedOut.close()]);
  expect(problems, problems.join("\n")).toEqual([]);
});
