import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";

// Past 50,000 published pages the sitemap splits, as the sitemap protocol requires: /sitemap.xml becomes an
// index of two parts, and every published page is in exactly one of them. Parts are ranges of
// Publication.sitemapSeq (given in the order the rows are made), so a page keeps its part.

const APP_URL = "https://verbatim.example";
const PUBLISHED = 50_001;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  ctx = await useTestDatabase();
  const user = await createUser(ctx.db);
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
     SELECT 'split-t-' || i, 'youtube', lpad(i::text, 11, 'v'), 'en', 'captions', 'Talk ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'v'), '[]'
     FROM generate_series(1, ${PUBLISHED + 1}) AS i`,
  );
  // One more that was published and taken down again: in no part.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
     SELECT 'split-p-' || i, 'talk-' || i || '-abcdef', $1, 'split-t-' || i, CASE WHEN i <= ${PUBLISHED} THEN now() - i * interval '1 second' END, now()
     FROM generate_series(1, ${PUBLISHED + 1}) AS i`,
    user.id,
  );
});
afterAll(async () => ctx?.teardown());

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("sitemap past 50,000 URLs", () => {
  it("is an index of two parts that list every published page once", async () => {
    const { GET: index } = await import("@/app/sitemap.xml/route");
    const { GET: part } = await import("@/app/sitemaps/[file]/route");
    expect(locs(await (await index()).text())).toEqual([`${APP_URL}/sitemaps/0.xml`, `${APP_URL}/sitemaps/1.xml`]);

    const read = async (file: string) =>
      part(new Request(`${APP_URL}/sitemaps/${file}`), { params: Promise.resolve({ file }) });
    const first = locs(await (await read("0.xml")).text());
    const second = locs(await (await read("1.xml")).text());
    expect(first).toHaveLength(50_000);
    expect(second).toHaveLength(1);
    const all = new Set([...first, ...second]);
    expect(all.size).toBe(PUBLISHED);
    expect(all.has(`${APP_URL}/t/talk-${PUBLISHED + 1}-abcdef`)).toBe(false);
    // In the order the publications were made: the part a page is in does not change as newer pages are
    // published, or when it is taken down and published again.
    expect(first[0]).toBe(`${APP_URL}/t/talk-1-abcdef`);
    expect(second).toEqual([`${APP_URL}/t/talk-${PUBLISHED}-abcdef`]);
    await ctx.db.publication.update({ where: { id: "split-p-7" }, data: { publishedAt: null } });
    expect(locs(await (await read("0.xml")).text())).not.toContain(`${APP_URL}/t/talk-7-abcdef`);
    await ctx.db.publication.update({ where: { id: "split-p-7" }, data: { publishedAt: new Date() } });
    expect(locs(await (await read("0.xml")).text())[6]).toBe(`${APP_URL}/t/talk-7-abcdef`);
    // The part count follows the newest live page: with the last one taken down, one part.
    await ctx.db.publication.update({ where: { id: `split-p-${PUBLISHED}` }, data: { publishedAt: null } });
    expect(locs(await (await index()).text())).toEqual([`${APP_URL}/sitemaps/0.xml`]);
    expect((await read("1.xml")).status).toBe(404);
    await ctx.db.publication.update({ where: { id: `split-p-${PUBLISHED}` }, data: { publishedAt: new Date() } });
    expect((await read("2.xml")).status).toBe(404);
    expect((await read("0.json")).status).toBe(404);
  });

  it("robots.txt points at the sitemap index and keeps crawlers out of the dashboard and the API", async () => {
    const robots = (await import("@/app/robots")).default();
    expect(robots.sitemap).toBe(`${APP_URL}/sitemap.xml`);
    expect(robots.rules).toEqual([
      expect.objectContaining({ disallow: expect.arrayContaining(["/dashboard", "/v1/"]) }),
    ]);
  });
});
