import { afterEach, describe, expect, it, vi } from "vitest";
import Handler from "@/lib/cache/next-cache-handler.mjs";

// Next.js's cache as the app configures it (in memory, not on disk), driven the way its incremental cache
// drives it: a lookup, the work a miss starts, the store of what that work made, a tag expired in between.

const handler = () =>
  new Handler({
    fs: undefined,
    dev: false,
    flushToDisk: false,
    serverDistDir: "/nonexistent",
    revalidatedTags: [],
    maxMemoryCacheSize: 50 * 1024 * 1024,
  });

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const data = (tag: string, text: string) => ({
  key: `data-${tag}`,
  ctx: { kind: "FETCH", tags: [tag], softTags: [] },
  value: { kind: "FETCH", data: { headers: {}, body: text, status: 200, url: "" }, revalidate: 300 },
  setCtx: { fetchCache: true, tags: [tag], revalidate: 300 },
});

const page = (slug: string, text: string) => ({
  key: `/t/${slug}`,
  ctx: { kind: "APP_PAGE" },
  value: {
    kind: "APP_PAGE",
    html: text,
    rscData: Buffer.from(text),
    headers: { "x-next-cache-tags": `_N_T_/t/${slug}` },
    postponed: undefined,
    status: 200,
    segmentData: undefined,
  },
  setCtx: { cacheControl: { revalidate: 300, expire: undefined } },
});

describe("what was read before a tag expired is not kept as fresh", () => {
  for (const [kind, entry, tag] of [
    ["data", data("public-index", "the index before"), "public-index"],
    ["a page", page("before-abc123", "<p>published</p>"), "_N_T_/t/before-abc123"],
  ] as const) {
    it(`${kind}: work that started before the expiry and was stored after it is looked up as a miss`, async () => {
      const cache = handler();
      expect(await cache.get(entry.key, entry.ctx)).toBeNull(); // the miss: its work reads now
      await tick();
      await cache.revalidateTag([tag]); // unpublished while that work ran
      await tick();
      await cache.set(entry.key, entry.value, entry.setCtx); // what it read is stored after
      expect(await cache.get(entry.key, entry.ctx)).toBeNull();

      // The lookup above started work again, after the expiry: what it stores is kept.
      await tick();
      await cache.set(entry.key, entry.value, entry.setCtx);
      expect(await cache.get(entry.key, entry.ctx)).toMatchObject({ value: { kind: entry.value.kind } });
    });
  }

  it("work started after the expiry is kept, and fresh lookups in between do not make the next store older", async () => {
    const cache = handler();
    const entry = data("index-after", "the index");
    await cache.revalidateTag(["index-after"]);
    await tick();
    expect(await cache.get(entry.key, entry.ctx)).toBeNull();
    await cache.set(entry.key, entry.value, entry.setCtx);
    for (let i = 0; i < 3; i++) expect(await cache.get(entry.key, entry.ctx)).not.toBeNull();

    await tick();
    await cache.revalidateTag(["index-after"]);
    await tick();
    expect(await cache.get(entry.key, entry.ctx)).toBeNull(); // expired: this lookup's work reads after it
    await cache.set(entry.key, entry.value, entry.setCtx);
    expect(await cache.get(entry.key, entry.ctx)).not.toBeNull();
  });
});

describe("an expiry holds at once, whatever the wall clock says", () => {
  afterEach(() => vi.restoreAllMocks());

  it("with the wall clock a second ahead of the cache's own, a page unpublished a moment ago is a miss", async () => {
    const cache = handler();
    const entry = page("ahead-abc123", "<p>published</p>");
    expect(await cache.get(entry.key, entry.ctx)).toBeNull();
    await cache.set(entry.key, entry.value, entry.setCtx);
    await tick();
    expect(await cache.get(entry.key, entry.ctx)).not.toBeNull();

    const wallClock = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => wallClock() + 1000);
    await cache.revalidateTag(["_N_T_/t/ahead-abc123"]);
    expect(await cache.get(entry.key, entry.ctx)).toBeNull();
  });
});
