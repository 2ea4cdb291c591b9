import { afterEach, beforeEach, expect, inject, test } from "vitest";
import { anonymous, type APIRequestContext, type APIResponse } from "./http";

// Anonymous pages that read the database are rate-limited per client address like the
// public API's reads, on the built app: /t/{slug} (served from Next.js's cache, so proxy.ts does not run
// for it) with unknown slugs, its search, /explore?q= and the sitemaps. Against an app of its own
// (test/server/global-setup.ts), whose per-address limits no other file meets.

const baseURL = inject("limitsOrigin");
let request: APIRequestContext;
beforeEach(async () => {
  request = await anonymous(baseURL);
});
afterEach(() => request.dispose());

const PUBLIC_PAGE_LIMIT = 300; // RATE_LIMITS.publicPage: 300 a minute per address
const PUBLIC_READ_LIMIT = 300; // RATE_LIMITS.publicRead
const BATCH = 20;

/**
 * Requests `pathFor(i)` in parallel batches until the app refuses one, and returns that refusal. The window is
 * fixed (rate-limiter-flexible: a minute from the key's first request), so a window that ends part-way lets
 * the count start again: hence up to twice the limit. When the refusal comes with little of its window left,
 * the window is waited out and used up afresh, so that the checks after it meet the same window.
 */
async function useUp(
  request: APIRequestContext,
  limit: number,
  pathFor: (i: number) => string,
  okStatus: number,
): Promise<APIResponse> {
  for (let round = 0; round < 2; round++) {
    let refusal: APIResponse | undefined;
    let answered = 0;
    for (let i = 0; !refusal && i <= 2 * limit; i += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: BATCH }, (_, j) => request.get(pathFor(round * 10_000 + i + j))),
      );
      for (const response of batch) {
        if (response.status() === 429) refusal ??= response;
        else expect(response.status(), response.url()).toBe(okStatus);
      }
      answered += batch.filter((response) => response.status() !== 429).length;
    }
    expect(refusal, `no 429 in ${answered} answers`).toBeDefined();
    if (Number(refusal!.headers()["retry-after"]) >= 20) return refusal!;
    await new Promise((resolve) => setTimeout(resolve, (Number(refusal!.headers()["retry-after"]) + 1) * 1000));
  }
  throw new Error("the limit's window ended twice right after it was used up");
}

test("unknown slugs run into the per-address limit; then /t searches, /explore?q= and the sitemaps are refused too; /v1/public stays limited", async () => {
  // Every slug is unknown: 404 until the limit, then 429.
  const refusal = await useUp(request, PUBLIC_PAGE_LIMIT, (i) => `/t/no-such-slug-${i}`, 404);
  expect(refusal.headers()["ratelimit-limit"]).toBe(String(PUBLIC_PAGE_LIMIT));

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
  const readRefusal = await useUp(request, PUBLIC_READ_LIMIT, () => "/v1/public/index?limit=1", 200);
  expect(readRefusal.headers()["ratelimit-limit"]).toBe(String(PUBLIC_READ_LIMIT));
}, 240_000);
