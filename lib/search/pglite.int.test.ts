// The same index and search on the embedded database (PGlite, what the app uses without DATABASE_URL):
// the migration's functions and trigger, stemming, CJK bigrams and ts_headline's marks. In memory, with
// the real migrations, installed as the app's connection (the one lib/db/client.ts keeps on globalThis).
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { gritTrack, mempoolChineseTrack, storeTranscript } from "@/test/search";
import { searchQuerySchema } from "@/lib/search/schemas";
import { migratedPglite } from "@/test/shared-fixtures";

let pglite: PGlite;
let db: PrismaClient;
let userId: string;
let searchLibrary: typeof import("@/lib/search/search-moments").searchLibrary;
let searchPublic: typeof import("@/lib/search/search-moments").searchPublic;

beforeAll(async () => {
  pglite = await migratedPglite();
  db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  (globalThis as { verbatimDb?: unknown }).verbatimDb = Promise.resolve({ client: db, kind: "pglite", pglite });
  ({ searchLibrary } = await import("@/lib/search/search-moments"));
  ({ searchPublic } = await import("@/lib/search/search-moments"));
  userId = (await db.user.create({ data: { email: "pglite-search@example.test" } })).id;
  await storeTranscript(db, { segments: gritTrack(), lang: "en", title: "Grit", userIds: [userId] });
  await storeTranscript(db, { segments: mempoolChineseTrack(), lang: "zh", title: "mempool", userIds: [userId] });
});

afterAll(async () => {
  await db?.$disconnect();
  await pglite?.close();
  delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
});

const search = (q: string, extra: Record<string, string> = {}) =>
  searchLibrary(userId, searchQuerySchema.parse({ q, ...extra }));

describe("search on PGlite", () => {
  it("has its search tables vacuumed and its terms' statistics once the hourly sweep ran (no autovacuum does it)", async () => {
    const { maintainSearchTables } = await import("@/lib/search/search-maintenance");
    const { commonPostingsEstimate, postingsUpTo } = await import("@/lib/search/queries");
    const [the] = await db.$queryRaw<{ id: number }[]>`
      SELECT "termId" AS "id" FROM "SearchPosting" GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`;
    // Pages marked all-visible: what lets an index-only scan read the index alone.
    const allVisible = async () =>
      db.$queryRaw<{ relname: string; relallvisible: number }[]>`
        SELECT relname, relallvisible FROM pg_class
        WHERE relname IN ('SearchPosting', 'TranscriptPassage') ORDER BY relname`;
    expect((await allVisible()).map((t) => t.relallvisible)).toEqual([0, 0]);
    expect(await commonPostingsEstimate(db, [the!.id])).toBe(0);
    expect(await maintainSearchTables()).toBe(true);
    expect(await commonPostingsEstimate(db, [the!.id])).toBeCloseTo(await postingsUpTo(db, [the!.id], 100_000), -1);
    for (const table of await allVisible()) expect(table.relallvisible, table.relname).toBeGreaterThan(0);
  });

  it("finds phrases at their timestamps, stems, marks the words", async () => {
    const marathon = (await search("marathon")).results;
    expect(marathon.map((m) => [m.start, m.segment_index])).toEqual([[202.969, 60]]);
    expect(marathon[0]!.highlights.map(([a, b]) => marathon[0]!.snippet.slice(a, b))).toEqual(["marathon"]);
    expect((await search("persevere")).results.map((m) => m.start).sort((a, b) => a - b)).toEqual([181.899, 319.44]);
    expect((await search('"growth mindset"')).results).toHaveLength(2);
    expect((await search('"mindset growth"')).results).toEqual([]);
    expect((await search("chicago -grit")).results).toEqual([]);
  });

  it("finds Chinese inside runs by bigrams", async () => {
    const found = (await search("闪电网络")).results;
    expect(found.map((m) => m.start).sort((a, b) => a - b)).toEqual([39.35, 113.626]);
    expect((await search("内存池", { lang: "zh" })).results.map((m) => m.segment_index)).toEqual([2]);
  });

  it("finds a word begun while typing, and offers the likeliest spelling of a word nothing holds", async () => {
    expect((await search("marath", { prefix: "true" })).results.map((m) => m.segment_index)).toEqual([60]);
    expect((await search("闪", { prefix: "true" })).results.length).toBeGreaterThan(0);
    const misspelt = await search("marathn");
    expect(misspelt.results).toEqual([]);
    expect(misspelt.did_you_mean).toBe("marathon");
  });

  it("answers hostile queries with nothing, and the public search shows nothing unpublished", async () => {
    for (const q of [
      '"grit is',
      "the of and",
      ".*[a-z]+\\d(?=x)",
      "!grit & (marathon | <-> :* )",
      `grit ${"-".repeat(40)}`,
      `grit ${"-!".repeat(40)}`,
    ]) {
      expect(Array.isArray((await search(q)).results)).toBe(true);
    }
    // Nothing the index can look up (querytree() is T on PGlite too): refused, at query.q.
    await expect(search("grit OR -zz")).rejects.toMatchObject({ items: [{ loc: ["query", "q"] }] });
    expect((await searchPublic(searchQuerySchema.parse({ q: "marathon" }))).results).toEqual([]);
  });

  it("keeps the index current when a transcript is replaced or deleted", async () => {
    const { transcript } = await storeTranscript(db, {
      segments: [{ start: 1, end: 2, text: "zeppelins over the bay" }],
      lang: "en",
      title: "Z",
      userIds: [userId],
    });
    expect((await search("zeppelin")).results).toHaveLength(1);
    await db.transcript.update({
      where: { id: transcript.id },
      data: { segments: [{ start: 3, end: 4, text: "submarines under the bay" }] },
    });
    expect((await search("zeppelin")).results).toEqual([]);
    expect((await search("submarine")).results.map((m) => m.start)).toEqual([3]);
    await db.transcript.delete({ where: { id: transcript.id } });
    expect((await search("submarine")).results).toEqual([]);
    // The hourly prune takes the words no passage holds any more, "zeppelin" among them, and leaves the rest.
    const { deleteUnusedSearchTerms } = await import("@/lib/search/prune-terms");
    expect(await deleteUnusedSearchTerms()).toBeGreaterThanOrEqual(2);
    const left = await db.$queryRaw<{ term: string }[]>`
      SELECT "term" FROM "SearchTerm" WHERE "term" IN ('zeppelin', 'submarin', 'grit') ORDER BY 1`;
    expect(left.map((row) => row.term)).toEqual(["grit"]);
    expect((await search("grit")).results.length).toBeGreaterThan(0);
  });
});
