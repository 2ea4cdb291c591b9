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
 * A document the app rendered carries Next's scripts. React hydrates it in parts: the shell first, then each
 * Suspense boundary once its code has loaded (a `next/dynamic` component such as the transcript viewer comes in
 * its own chunk, seconds later on a busy machine). A click on a part still waiting for its code is dropped, not
 * replayed; so the page is ready once React owns every control on it, each carrying the props React hydrated it
 * with (all but the hidden inputs of a server action's form, which React leaves alone). Anything else (JSON, a
 * feed, a download) has nothing to wait for.
 */
async function untilHydrated(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () => {
        if (!document.querySelector('script[src*="/_next/"]')) return true;
        const owned = (element: Element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"));
        return (
          owned(document.body) &&
          [...document.body.querySelectorAll("button, input:not([type=hidden]), select, textarea")].every(owned)
        );
      },
      undefined,
      { timeout: 30_000 },
    );
  } catch (error) {
    throw new Error(`The page at ${page.url()} did not hydrate within 30 s: ${(error as Error).message}`);
  }
}
