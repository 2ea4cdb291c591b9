import { expect, test, type Page } from "@playwright/test";
import { contrastProblems } from "./contrast";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// Issue 15: every page, at a phone's and a laptop's size: no sideways scroll (the document is no wider
// than the window), no serious or critical accessibility violation (axe-core), no console error, a title.
// The same scan is the light scheme's colour-contrast check (issue 27), axe's needs-review results counted
// (e2e/contrast.ts); product-pages.spec.ts checks the dark scheme.
// E2E_PAGES_SKIP (comma list of names) leaves pages out while one is being reworked.

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;

const skipped = new Set([
  ...(process.env.E2E_PAGES_SKIP ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
]);

/** A 1×1 PNG standing in for YouTube's thumbnails (no network here). */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

interface World {
  slug: string;
  transcriptId: string;
  consent: string;
  deviceCode: string;
}

/** A user with history (a transcript, a failed request), a published page, a pending device code and an OAuth client. */
async function makeWorld(page: Page): Promise<World> {
  await devLogin(page, randomEmail("pages"));
  const api = page.request;
  const ok = await api.post("/v1/transcript", {
    data: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, lang: "en" },
  });
  expect(ok.status()).toBe(200);
  expect(
    (
      await api.post("/v1/transcript", {
        data: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.private}`, lang: "en" },
      })
    ).ok(),
  ).toBe(false);
  const published = await api.post("/v1/publish", {
    data: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, lang: "en" },
  });
  expect(published.status()).toBe(200);
  const { slug } = await published.json();
  const device = await (await api.post("/v1/device/code", { form: { client_id: "verbatim-cli" } })).json();
  const client = await (
    await api.post("/oauth/register", {
      data: { redirect_uris: ["http://127.0.0.1:9/callback"], client_name: "Pages Connector" },
    })
  ).json();
  const consent = `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1:9/callback",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "pages",
    scope: "api",
  })}`;
  return { slug, transcriptId: (await ok.json()).id, consent, deviceCode: device.user_code };
}

/** Name → path (signed in unless `signedOut`), and what proves the page has rendered. */
function pages(world: World) {
  return [
    { name: "home", path: "/", signedOut: true, ready: (p: Page) => p.getByTestId("link-box") },
    {
      name: "signin",
      path: "/signin",
      signedOut: true,
      ready: (p: Page) => p.getByRole("heading", { name: "Sign in to Verbatim" }),
    },
    { name: "explore", path: "/explore", signedOut: true, ready: (p: Page) => p.getByRole("heading", { level: 1 }) },
    {
      name: "docs",
      path: "/docs",
      signedOut: true,
      ready: (p: Page) => p.getByRole("heading", { name: /Transcripts/ }).first(),
    },
    { name: "not-found", path: "/no-such-page", signedOut: true, ready: (p: Page) => p.getByTestId("not-found") },
    {
      name: "public-transcript",
      path: `/t/${world.slug}`,
      signedOut: true,
      ready: (p: Page) => p.getByTestId("public-segments").getByRole("listitem").first(),
    },
    {
      name: "transcribe",
      path: "/dashboard",
      ready: (p: Page) => p.getByRole("heading", { name: "Transcribe", level: 1 }),
    },
    {
      name: "transcript",
      path: `/dashboard?transcript=${world.transcriptId}`,
      ready: (p: Page) => p.getByTestId("segment").first(),
    },
    {
      name: "transcript-search",
      path: `/dashboard?transcript=${world.transcriptId}`,
      ready: (p: Page) => p.getByTestId("segment").first(),
      search: "dough",
    },
    { name: "history", path: "/dashboard/history", ready: (p: Page) => p.getByTestId("history-row").first() },
    {
      name: "imports",
      path: "/dashboard/imports",
      ready: (p: Page) => p.getByRole("heading", { name: "Imports", level: 1 }),
    },
    { name: "published", path: "/dashboard/published", ready: (p: Page) => p.getByTestId("published-row").first() },
    { name: "billing", path: "/dashboard/billing", ready: (p: Page) => p.getByTestId("current-tier") },
    { name: "keys", path: "/dashboard/keys", ready: (p: Page) => p.getByTestId("key-prefix") },
    {
      name: "webhooks",
      path: "/dashboard/webhooks",
      ready: (p: Page) => p.getByRole("heading", { name: "Webhooks", level: 1 }),
    },
    {
      name: "device",
      path: `/device?user_code=${world.deviceCode}`,
      ready: (p: Page) => p.getByTestId("device-user-code"),
    },
    { name: "consent", path: world.consent, ready: (p: Page) => p.getByTestId("consent-client") },
  ].filter((entry) => !skipped.has(entry.name));
}

test("every page fits a phone and a laptop, passes axe (no serious or critical), logs no error and has a title", async ({
  browser,
}) => {
  // Every page at two sizes with axe: minutes on two cores shared with the other steps of npm test.
  test.setTimeout(480_000);
  const signedIn = await browser.newContext();
  const setup = await signedIn.newPage();
  const world = await makeWorld(setup);
  await setup.close();
  const signedOut = await browser.newContext();
  const problems: string[] = [];

  for (const entry of pages(world)) {
    for (const size of SIZES) {
      const page = await (entry.signedOut ? signedOut : signedIn).newPage();
      await page.route("https://i.ytimg.com/**", (route) => route.fulfill({ contentType: "image/png", body: PIXEL }));
      // The embedded players are third-party pages: not loaded here (no network), not ours to audit.
      await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
      );
      const errors: string[] = [];
      page.on("console", (message) => {
        // A 404 page's own status is logged by Chromium as a failed load: that one is the point of the page.
        const ownStatus = entry.name === "not-found" && message.location().url.endsWith(entry.path);
        if (message.type() === "error" && !ownStatus) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(entry.path);
      await expect(entry.ready(page)).toBeVisible();
      if (entry.search) await page.getByTestId("transcript-search").fill(entry.search);
      // Nothing scrolled under the sticky player: the contrast check sees each element on its own background.
      await page.evaluate(() => window.scrollTo(0, 0));
      const where = `${entry.name} at ${size.width}px`;

      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      if (scrollWidth > clientWidth) problems.push(`${where}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);

      const title = await page.title();
      if (!/\S/.test(title) || (entry.name !== "home" && title === "Verbatim"))
        problems.push(`${where}: title "${title}"`);

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
      for (const error of errors) problems.push(`${where}: console error ${error}`);
      await page.close();
    }
  }
  await Promise.all([signedIn.close(), signedOut.close()]);
  expect(problems, problems.join("\n")).toEqual([]);
});
