import { expect, type BrowserContext, type Page, type Route } from "@playwright/test";
import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";

// Nothing done before a page hydrates is lost: the server's HTML shows a control whose only handler is React's as
// inactive until React owns it, and what was typed into a box before then is still there, and used, after. The
// page's scripts are held (CPU slowed 4×, as a slow phone) until the test has typed, then released: no sleeps.

/** A page of its own, not one whose goto waits for hydration (fixtures.ts): its script chunks held until released. */
async function pageBeforeHydration(context: BrowserContext): Promise<{ page: Page; release: () => Promise<void> }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
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
