import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { SITEMAP_PART_URLS } from "@/lib/publishing/sitemap";
import { publicPageUrl } from "@/lib/publishing/serializers";

// Past SITEMAP_PART_URLS published pages the sitemap splits: /sitemap.xml becomes an index of two parts, and
// every published page is in exactly one of them. Parts are ranges of Publication.sitemapSeq (given in the
// order the rows are made), so a page keeps its part. Slugs here are as long as a slug can be (80
// characters), so a full part is as big as a part can be.

const APP_URL = "https://verbatim.example";
const PUBLISHED = SITEMAP_PART_URLS + 1;
/** The protocol's limits for one sitemap file. */
const PROTOCOL_MAX_URLS = 50_000;
const PROTOCOL_MAX_BYTES = 50 * 1024 * 1024;
const slug = (i: number) => `talk-${i}-`.padEnd(80, "x");

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  ctx = await useTestDatabase();
  const user = await createUser(ctx.db);
  // The pages have no words, so the search index trigger would have nothing to hold for them: without it the
  // ten thousand rows go in at once instead of running the trigger for each (this file's PostgreSQL time).
  await ctx.db.$transaction([
    ctx.db.$executeRawUnsafe(`ALTER TABLE "Transcript" DISABLE TRIGGER "Transcript_search_index"`),
    ctx.db.$executeRawUnsafe(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
       SELECT 'split-t-' || i, 'youtube', lpad(i::text, 11, 'v'), 'en', 'captions', 'Talk ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'v'), '[]'
       FROM generate_series(1, ${PUBLISHED + 1}) AS i`,
    ),
    ctx.db.$executeRawUnsafe(`ALTER TABLE "Transcript" ENABLE TRIGGER "Transcript_search_index"`),
  ]);
  // One more that was published and taken down again: in no part.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
     SELECT 'split-p-' || i, rpad('talk-' || i || '-', 80, 'x'), $1, 'split-t-' || i, CASE WHEN i <= ${PUBLISHED} THEN now() - i * interval '1 second' END, now()
     FROM generate_series(1, ${PUBLISHED + 1}) AS i`,
    user.id,
  );
});
afterAll(async () => ctx?.teardown());

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("sitemap past SITEMAP_PART_URLS pages", () => {
  it("is an index of two parts that list every published page once", async () => {
    const { GET: index } = await import("@/app/sitemap.xml/route");
    const { GET: part } = await import("@/app/sitemaps/[file]/route");
    expect(locs(await (await index()).text())).toEqual([`${APP_URL}/sitemaps/0.xml`, `${APP_URL}/sitemaps/1.xml`]);

    const read = async (file: string) =>
      part(new Request(`${APP_URL}/sitemaps/${file}`), { params: Promise.resolve({ file }) });
    const full = await (await read("0.xml")).text();
    const first = locs(full);
    const second = locs(await (await read("1.xml")).text());
    expect(first).toHaveLength(SITEMAP_PART_URLS);
    expect(SITEMAP_PART_URLS).toBeLessThanOrEqual(PROTOCOL_MAX_URLS);
    expect(Buffer.byteLength(full)).toBeLessThan(PROTOCOL_MAX_BYTES);
    expect(second).toHaveLength(1);
    const all = new Set([...first, ...second]);
    expect(all.size).toBe(PUBLISHED);
    expect(all.has(`${APP_URL}/t/${slug(PUBLISHED + 1)}`)).toBe(false);
    // Each URL with its page's last change, as publicPageUrl and the row say.
    const row = await ctx.db.publication.findUniqueOrThrow({ where: { id: "split-p-1" } });
    expect(full).toContain(
      `<url><loc>${publicPageUrl(slug(1))}</loc><lastmod>${row.updatedAt.toISOString()}</lastmod></url>`,
    );
    // In the order the publications were made: the part a page is in does not change as newer pages are
    // published, or when it is taken down and published again.
    expect(first[0]).toBe(`${APP_URL}/t/${slug(1)}`);
    expect(second).toEqual([`${APP_URL}/t/${slug(PUBLISHED)}`]);
    await ctx.db.publication.update({ where: { id: "split-p-7" }, data: { publishedAt: null } });
    expect(locs(await (await read("0.xml")).text())).not.toContain(`${APP_URL}/t/${slug(7)}`);
    await ctx.db.publication.update({ where: { id: "split-p-7" }, data: { publishedAt: new Date() } });
    expect(locs(await (await read("0.xml")).text())[6]).toBe(`${APP_URL}/t/${slug(7)}`);
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
