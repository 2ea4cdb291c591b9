import { test as base, type Page } from "@playwright/test";

/**
 * Playwright's `test` with a page whose goto and reload return once the app's page has hydrated. Until then a
 * button's React handler is not attached and a click on it is lost; a page loaded by the browser on a busy
 * machine can sit for seconds between its load event and its hydration. Specs take `test` from here (the lint
 * refuses it from @playwright/test in e2e/); a page a spec opens itself goes through `hydrating` too.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    await use(hydrating(page));
  },
});

export function hydrating(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await untilHydrated(page);
    return response;
  };
  return page;
}

/**
 * A document the app rendered carries Next's scripts; React marks each element it has hydrated with a fiber
 * property, the body among the first. From then on React hears every click, and replays one on a part that is
 * still hydrating. Anything else (JSON, a feed, a download) has nothing to wait for.
 */
async function untilHydrated(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () =>
        !document.querySelector('script[src*="/_next/"]') ||
        Object.keys(document.body ?? {}).some((key) => key.startsWith("__reactFiber$")),
      undefined,
      { timeout: 30_000 },
    );
  } catch (error) {
    throw new Error(`The page at ${page.url()} did not hydrate within 30 s: ${(error as Error).message}`);
  }
}
