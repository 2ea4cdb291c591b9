import { cached } from "@/lib/cache/cached";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { publicPageUrl } from "@/lib/publishing/serializers";
import { showPagePath } from "@/lib/publishing/show-links";
import { isSlug } from "@/lib/publishing/slug";
import { PUBLIC_INDEX_TAG } from "@/lib/cache/public-pages";

// sitemap.xml for the published pages, split into parts of SITEMAP_PART_URLS. /sitemap.xml is a sitemap
// index naming /sitemaps/<n>.xml; each part lists one range of the published pages, in the order they were
// first published, so a page keeps its part while newer ones are added. The protocol allows 50,000 URLs and
// 50 MB per file and 50,000 parts per index; a part here is 10,000 URLs (a slug is at most 80 characters: a full part
// is under 2 MB), so building the newest part, right after a publish, costs the same at a million pages as at ten
// thousand (docs/decisions/0007-reads-that-stay-flat-as-data-grows.md), and one index holds 500 million pages.
// (Next.js's generateSitemaps fixes the list of parts at build time and writes no index, so the parts
// are route handlers here.) The XML is kept in Next.js's data cache under PUBLIC_INDEX_TAG, which every
// publish and unpublish expires (lib/cache/public-pages.ts), so a cached answer reads no database.
// The followed shows' pages (/s/{slug}) have parts of their own, /sitemaps/shows-<n>.xml, ranges of
// Follow."showSeq" the same way: a show is listed while at least one of its episodes is published (its page
// answers), with the newest change of those as its lastmod.

/** URLs per part (the protocol's limit is 50,000). */
export const SITEMAP_PART_URLS = 10_000;

const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

const xmlResponse = (body: string) =>
  new Response(body, {
    headers: {
      "content-type": "application/xml; charset=utf-8",
      "cache-control": "public, max-age=300, s-maxage=3600",
    },
  });

/**
 * Parts are ranges of Publication."sitemapSeq" (a number given once, when the publication row is made):
 * part n lists the live pages with n * SITEMAP_PART_URLS < sitemapSeq <= (n + 1) * SITEMAP_PART_URLS, so at
 * most SITEMAP_PART_URLS (fewer where pages were unpublished), and a page keeps its part for good. The
 * number of parts is the highest live number's part, read from the end of the unique index: no count, no
 * OFFSET, the same cost at any size.
 */
export async function sitemapPartCount(): Promise<number> {
  const db = await getDb();
  const last = await db.publication.findFirst({
    where: { publishedAt: { not: null } },
    orderBy: { sitemapSeq: "desc" },
    select: { sitemapSeq: true },
  });
  return Math.max(1, Math.ceil((last?.sitemapSeq ?? 0) / SITEMAP_PART_URLS));
}

/** How long a cached sitemap may be served without a publish or unpublish expiring it. */
const CACHE_SECONDS = 3600;

const indexXml = cached(
  async (): Promise<string> => {
    const parts = await sitemapPartCount();
    const showParts = await showPartCount();
    const base = env().APP_URL;
    const entry = (file: string) =>
      `<sitemap><loc>${escapeXml(new URL(`/sitemaps/${file}`, base).toString())}</loc></sitemap>`;
    const entries = [
      ...Array.from({ length: parts }, (_, n) => entry(`${n}.xml`)),
      ...Array.from({ length: showParts }, (_, n) => entry(`shows-${n}.xml`)),
    ];
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</sitemapindex>\n`;
  },
  "sitemap-index",
  [PUBLIC_INDEX_TAG],
  CACHE_SECONDS,
);

/** The sitemap index: one entry per part. */
export async function sitemapIndexResponse(): Promise<Response> {
  return xmlResponse(await indexXml());
}

const partXml = cached(
  async (n: number): Promise<string | null> => {
    if (n >= (await sitemapPartCount())) return null;
    const db = await getDb();
    // Two columns of up to SITEMAP_PART_URLS rows, a range scan of the unique index on "sitemapSeq". Raw
    // rows, not Prisma's model objects, and each URL from one prefix (a slug is ASCII letters, digits and
    // hyphens: the same string publicPageUrl builds): together about 40 % less time than model objects and a
    // URL parsed per row (measured at 10,000 rows).
    const rows = await db.$queryRaw<{ slug: string; updatedAt: Date }[]>`
      SELECT "slug", "updatedAt" FROM "Publication"
      WHERE "sitemapSeq" > ${n * SITEMAP_PART_URLS} AND "sitemapSeq" <= ${(n + 1) * SITEMAP_PART_URLS}
        AND "publishedAt" IS NOT NULL
      ORDER BY "sitemapSeq"`;
    const prefix = publicPageUrl("");
    const urls = rows.map(
      (row) =>
        `<url><loc>${escapeXml(isSlug(row.slug) ? prefix + row.slug : publicPageUrl(row.slug))}</loc><lastmod>${row.updatedAt.toISOString()}</lastmod></url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
  },
  "sitemap-part",
  [PUBLIC_INDEX_TAG],
  CACHE_SECONDS,
);

/**
 * The number of shows parts: the highest show number's part, read from the end of its unique index (0 with no
 * follow). A part may list no show at all (none of its follows has a published episode): an empty urlset.
 */
export async function showPartCount(): Promise<number> {
  const db = await getDb();
  const last = await db.follow.findFirst({
    where: { showSlug: { not: null } },
    orderBy: { showSeq: "desc" },
    select: { showSeq: true },
  });
  return Math.ceil((last?.showSeq ?? 0) / SITEMAP_PART_URLS);
}

const showPartXml = cached(
  async (n: number): Promise<string | null> => {
    if (n >= (await showPartCount())) return null;
    const db = await getDb();
    // The shows of the range that have a page (a done item whose transcript the follow's owner publishes, as
    // show-page.ts lists them), each with its episodes' newest change.
    const rows = await db.$queryRaw<{ slug: string; updatedAt: Date }[]>`
      SELECT f."showSlug" AS "slug", max(p."updatedAt") AS "updatedAt"
      FROM "Follow" f
      JOIN "FollowItem" i ON i."followId" = f."id" AND i."status" = 'done'
      JOIN "Publication" p ON p."transcriptId" = i."transcriptId" AND p."userId" = f."userId"
      WHERE f."showSeq" > ${n * SITEMAP_PART_URLS} AND f."showSeq" <= ${(n + 1) * SITEMAP_PART_URLS}
        AND f."showSlug" IS NOT NULL AND p."publishedAt" IS NOT NULL
      GROUP BY f."showSeq", f."showSlug"
      ORDER BY f."showSeq"`;
    return urlsetXml(
      rows.map((row) => ({ loc: new URL(showPagePath(row.slug), env().APP_URL).toString(), lastmod: row.updatedAt })),
    );
  },
  "sitemap-shows-part",
  [PUBLIC_INDEX_TAG],
  CACHE_SECONDS,
);

/** A sitemap part's XML: each page's URL with its last change. */
export function urlsetXml(urls: readonly { loc: string; lastmod: Date }[]): string {
  const entries = urls.map(
    (url) => `<url><loc>${escapeXml(url.loc)}</loc><lastmod>${url.lastmod.toISOString()}</lastmod></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</urlset>\n`;
}

/**
 * Part `n` ("0.xml", "1.xml", …: published pages; "shows-0.xml", …: show pages) with each page's last change;
 * an unknown part is null (404).
 */
export async function sitemapPartResponse(file: string): Promise<Response | null> {
  const match = /^(shows-)?(\d{1,6})\.xml$/.exec(file);
  if (!match) return null;
  const body = match[1] ? await showPartXml(Number(match[2])) : await partXml(Number(match[2]));
  return body === null ? null : xmlResponse(body);
}
