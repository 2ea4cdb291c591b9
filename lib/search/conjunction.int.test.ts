import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { searchQuerySchema } from "@/lib/search/schemas";

// Two common words seldom said together: each is in 2,100 published passages three times over, and together
// only in 5 passages, once each. Those 5 are last in both words' postings (lowest impact), past what the postings'
// fixed candidate set reads, so ranking by postings alone finds none of them; a conjunction with so few matches is
// ranked whole (CONJUNCTION_MATCHES), exactly as the exhaustive ranking ranks it.
const SEED = `
  INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('cj', 'cj@example.test', now());
  INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments", "createdAt")
  SELECT 'cj-' || i, 'youtube', lpad(i::text, 11, 'c'), 'en', 'captions', 'Episode ' || i,
    'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'c'),
    jsonb_build_array(jsonb_build_object('start', 0, 'end', 9, 'text',
      CASE WHEN i <= 2100 THEN 'walrus walrus walrus swims' WHEN i <= 4200 THEN 'pelican pelican pelican flies'
           ELSE 'a walrus met a pelican at dawn' END)),
    timestamp '2026-01-01' + make_interval(mins => i)
  FROM generate_series(1, 4205) AS i;
  INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
  SELECT 'cjp-' || i, 'cj-' || i, 'cj', 'cj-' || i, now(), now() FROM generate_series(1, 4205) AS i;
  ANALYZE;`;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ctx = await useTestDatabase();
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  await client.query(SEED);
  await client.end();
});
afterAll(async () => ctx?.teardown());

describe("a conjunction of common words seldom said together", () => {
  it("is ranked whole, as the exhaustive ranking ranks it, where the postings' best miss it", async () => {
    const { findMoments, rankAllMatches } = await import("@/lib/search/find-moments");
    const query = searchQuerySchema.parse({ q: "walrus pelican", limit: "20" });
    const key = (m: { transcriptId: string; seq: number }) => `${m.transcriptId}:${m.seq}`;
    const exhaustive = (await rankAllMatches({ kind: "public" }, query, 50)).map(key);
    expect(exhaustive).toHaveLength(5);
    expect((await findMoments({ kind: "public" }, query)).map(key)).toEqual(exhaustive);
    // What the bound saves it from: the postings' fixed candidate set alone.
    expect((await findMoments({ kind: "public" }, query, { driver: "postings" })).length).toBeLessThan(5);
    // An OR is not a conjunction: each word's best come first.
    const either = await findMoments({ kind: "public" }, searchQuerySchema.parse({ q: "walrus or pelican" }));
    expect(either.length).toBeGreaterThan(5);
  });

  it("is told from its words' statistics after ANALYZE: each word's postings, near the true count", async () => {
    const { commonPostingsEstimate, postingsUpTo } = await import("@/lib/search/queries");
    const { getDb } = await import("@/lib/db/client");
    const db = await getDb();
    const ids = await db.$queryRaw<{ id: number }[]>`
      SELECT "id" FROM "SearchTerm" WHERE "term" IN ('walrus', 'pelican') ORDER BY "term"`;
    expect(ids).toHaveLength(2);
    const both = ids.map((row) => row.id);
    const counted = await postingsUpTo(db, both, 100_000);
    expect(counted).toBe(2 * 2105);
    // The whole table is the sample here, so the estimate is the count.
    expect(await commonPostingsEstimate(db, both)).toBeCloseTo(counted, -1);
    expect(await commonPostingsEstimate(db, [both[0]!])).toBeCloseTo(2105, -1);
    expect(await commonPostingsEstimate(db, [-1])).toBe(0);
  });
});
