import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Worker } from "@playwright/test";

/**
 * Full Chromium (Debian's package, as CI installs it), else Playwright's own Chromium in its new headless mode
 * (`channel: "chromium"`): the headless shell the e2e suite runs cannot load extensions.
 */
export const EXTENSION_CHROMIUM: string | undefined =
  process.env.EXTENSION_CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
export const EXTENSION_DIR = path.resolve(import.meta.dirname, "..", "extension", "dist");

/**
 * A fresh profile with the built extension loaded, in Chromium's new headless mode, YouTube's watch pages answered
 * by the fake (the content script is declared for https://www.youtube.com/*, so the page must have that address).
 */
export async function withExtension(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; extensionId: string; worker: Worker }> {
  const context = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), "verbatim-ext-")), {
    ...(EXTENSION_CHROMIUM ? { executablePath: EXTENSION_CHROMIUM } : { channel: "chromium" }),
    headless: true,
    viewport,
    args: [
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  const youtube = process.env.E2E_EXTENSION_YOUTUBE!;
  await context.route("https://www.youtube.com/**", async (route) => {
    const url = new URL(route.request().url());
    const range = route.request().headers().range;
    const answer = await fetch(`${youtube}${url.pathname}${url.search}`, { headers: range ? { range } : {} });
    await route.fulfill({
      status: answer.status,
      headers: Object.fromEntries(answer.headers),
      body: Buffer.from(await answer.arrayBuffer()),
    });
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  return { context, extensionId: new URL(worker.url()).host, worker };
}
