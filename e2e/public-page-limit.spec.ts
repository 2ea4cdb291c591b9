import { expect, test } from "@playwright/test";

// Issue 21 item 5: anonymous pages that read the database are rate-limited per client address like the
// public API's reads, on the built app: /t/{slug} (served from Next.js's cache, so proxy.ts does not run
// for it) with unknown slugs, its search, /explore?q= and the sitemaps. Against the fuzz app
// (playwright.config.ts), whose per-address limits no other spec needs afterwards.

test.use({ baseURL: process.env.E2E_FUZZ_ORIGIN });

const PUBLIC_PAGE_LIMIT = 300; // RATE_LIMITS.publicPage: 300 a minute per address
const PUBLIC_READ_LIMIT = 300; // RATE_LIMITS.publicRead

test("unknown slugs run into the per-address limit; then /t searches, /explore?q= and the sitemaps are refused too; /v1/public stays limited", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const statuses: number[] = [];
  for (let i = 0; i <= PUBLIC_PAGE_LIMIT && !statuses.includes(429); i++) {
    statuses.push((await request.get(`/t/no-such-slug-${i}`)).status());
  }
  // Every slug is unknown: 404 until the limit (the fuzz spec before may have used part of it), then 429.
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);

  const limited = await request.get("/t/no-such-slug-again");
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(limited.headers()["ratelimit-limit"]).toBe(String(PUBLIC_PAGE_LIMIT));
  expect(limited.headers()["cache-control"]).toBe("no-store");
  expect(await limited.text()).toContain("Too many requests");
  for (const path of ["/t/some-slug?q=bread", "/explore?q=bread", "/explore", "/sitemap.xml", "/sitemaps/0.xml"]) {
    expect((await request.get(path)).status(), path).toBe(429);
  }

  // The public API's reads have their own row (publicRead), unchanged.
  const reads: number[] = [];
  for (let i = 0; i <= PUBLIC_READ_LIMIT && !reads.includes(429); i++)
    reads.push((await request.get("/v1/public/index?limit=1")).status());
  expect(reads.at(-1)).toBe(429);
  expect(reads.slice(0, -1).every((status) => status === 200)).toBe(true);
});
