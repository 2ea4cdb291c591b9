import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// Shared with the server suite (test/server): the fresh emails, and the keys and tokens noted for
// e2e/global-teardown.ts's search of the app servers' logs.
export { randomEmail } from "../test/emails";
export { recordSecrets } from "../test/secrets";

/** Signs in through the sign-in page with the development login (on by default with embedded defaults). */
export async function devLogin(page: Page, email: string, from = "/dashboard") {
  await page.goto(from);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(email);
}

/**
 * axe-core on our own document, iframes left out (the embedded players are third-party pages). Legacy mode runs
 * axe once in the page: the default mode gathers each frame's results and merges them in a blank page it opens
 * for every scan, which made each scan about three times slower on a 2-core machine, with the same results.
 * With the iframes excluded there is nothing for it to merge.
 */
export function axeScan(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).exclude("iframe").setLegacyMode(true);
}
