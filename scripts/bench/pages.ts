// Figures for the pages: Largest Contentful Paint and the JavaScript shipped for /dashboard
// (the empty Transcribe page), History, a 71-minute transcript view (/dashboard?transcript=<id>, the real
// TED "Grit" captions repeated to 71 minutes) and its public page (/t/{slug}), from the production build in
// Chromium, on a laptop (1366×900) and a phone (390×844, CPU slowed 4× through CDP's
// Emulation.setCPUThrottlingRate). Each page is loaded 5 times in a fresh browser context
// (empty cache); LCP is the last `largest-contentful-paint` entry once the page has settled (median of 5),
// JS is the sum of the script resources' sizes (Resource Timing: transferred = encodedBodySize, which is
// gzip as `next start` serves it; decoded = decodedBodySize).
import { chromium, type Browser } from "@playwright/test";
import pg from "pg";
import { createMigratedTestDatabase } from "../../test/pg";
import { insertDoneEntries } from "../../lib/transcripts/history-queries";
import { gritSegments, GRIT_VIDEO_ID } from "../../test/publishing";
import { devLoginCookies, startApp } from "./server";

const RUNS = 5;
const TRANSCRIPT_ID = "bench-view-grit";
/** Grit's captions, one after another, until they fill 71 minutes (a long video). */
const LONG_SECONDS = 71 * 60;

const PROFILES = [
  { name: "desktop", viewport: { width: 1366, height: 900 }, cpuSlowdown: 1 },
  { name: "phone", viewport: { width: 390, height: 844 }, cpuSlowdown: 4 },
] as const;
type Profile = (typeof PROFILES)[number];

function longSegments() {
  const grit = gritSegments();
  const length = Math.ceil(grit.at(-1)!.end) + 2;
  const segments: typeof grit = [];
  for (let offset = 0; offset + length <= LONG_SECONDS; offset += length) {
    for (const segment of grit) segments.push({ ...segment, start: segment.start + offset, end: segment.end + offset });
  }
  return segments;
}

async function signIn(baseUrl: string, email: string): Promise<{ name: string; value: string }[]> {
  return (await devLoginCookies(baseUrl, email)).map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
}

/** The transcript and the signed-in user's history entry for it, as POST /v1/transcript leaves them. */
async function seedHistory(url: string, email: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const segments = longSegments();
    const duration = Math.ceil(segments.at(-1)!.end);
    await client.query(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
       VALUES ($1, 'youtube', $2, 'en', 'captions', 'manual', 'Grit: the power of passion and perseverance', $3, $4, $5)`,
      [
        TRANSCRIPT_ID,
        GRIT_VIDEO_ID,
        `https://www.youtube.com/watch?v=${GRIT_VIDEO_ID}`,
        duration,
        JSON.stringify(segments),
      ],
    );
    const users = await client.query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = $1`, [email]);
    await insertDoneEntries(
      (text, values) => client.query(text, values),
      users.rows.map((user) => ({
        id: "bench-view-entry",
        userId: user.id,
        platform: "youtube",
        videoId: GRIT_VIDEO_ID,
        lang: "en",
        origin: "captions",
        transcriptId: TRANSCRIPT_ID,
        durationSeconds: duration,
      })),
    );
  } finally {
    await client.end();
  }
}

interface PageFigures {
  lcpMs: number;
  jsTransferredBytes: number;
  jsDecodedBytes: number;
  scripts: number;
}

async function measure(
  browser: Browser,
  baseUrl: string,
  cookies: { name: string; value: string }[],
  path: string,
  ready: string,
  profile: Profile,
): Promise<PageFigures> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    isMobile: profile.name === "phone",
    hasTouch: profile.name === "phone",
  });
  try {
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseUrl })));
    // Blocks the YouTube iframe: no internet here, and a third-party frame is not ours to count.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    const page = await context.newPage();
    if (profile.cpuSlowdown > 1)
      await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: profile.cpuSlowdown });
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number };
      w.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    await page.goto(`${baseUrl}${path}`, { waitUntil: "load" });
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState("networkidle");
    return await page.evaluate(() => {
      const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
        (entry) => entry.initiatorType === "script" || entry.name.endsWith(".js"),
      );
      return {
        lcpMs: (window as unknown as { __lcp: number }).__lcp,
        jsTransferredBytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
        jsDecodedBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
        scripts: scripts.length,
      };
    });
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchPages(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  const app = await startApp(3410, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    APP_URL: "http://127.0.0.1:3410",
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const email = `bench-pages-${Date.now()}@example.test`;
    const cookies = await signIn(app.baseUrl, email);
    await seedHistory(database.url, email);
    // The long transcript published, for its public page.
    const session = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
    const published = await fetch(`${app.baseUrl}/v1/publish`, {
      method: "POST",
      headers: { cookie: session, origin: app.baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ url: `https://www.youtube.com/watch?v=${GRIT_VIDEO_ID}`, lang: "en" }),
    });
    if (!published.ok) throw new Error(`publish: ${published.status} ${await published.text()}`);
    const { slug } = (await published.json()) as { slug: string };
    const pages = {
      "/dashboard": { path: "/dashboard", ready: "[data-testid=transcribe-url]" },
      "/dashboard/history": { path: "/dashboard/history", ready: "[data-testid=history-row]" },
      "71-minute transcript view": { path: `/dashboard?transcript=${TRANSCRIPT_ID}`, ready: "[data-testid=segment]" },
      "/t/{slug} (71 minutes)": { path: `/t/${slug}`, ready: "[data-testid=public-segment]", signedOut: true },
    };
    const figures: Record<string, number> = {};
    for (const profile of PROFILES) {
      for (const [label, { path, ready, ...rest }] of Object.entries(pages)) {
        const as = "signedOut" in rest ? [] : cookies;
        await measure(browser, app.baseUrl, as, path, ready, profile); // warm-up (the server's first render)
        const runs: PageFigures[] = [];
        for (let run = 0; run < RUNS; run++) runs.push(await measure(browser, app.baseUrl, as, path, ready, profile));
        const name = `${label}, ${profile.name}${profile.cpuSlowdown > 1 ? ` (CPU ${profile.cpuSlowdown}× slower)` : ""}`;
        figures[`${name}: LCP, ms (median of ${RUNS})`] = median(runs.map((r) => r.lcpMs));
        figures[`${name}: JS transferred, KiB`] = median(runs.map((r) => r.jsTransferredBytes)) / 1024;
        figures[`${name}: JS decoded, KiB`] = median(runs.map((r) => r.jsDecodedBytes)) / 1024;
      }
    }
    return figures;
  } finally {
    await browser.close();
    await app.stop();
    await database.drop();
  }
}
