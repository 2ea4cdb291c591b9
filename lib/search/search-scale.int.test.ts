// A frequent word: more matching passages than SEARCH_MAX_CANDIDATES. The public and library searches page
// through the best of them, and paging in pages of any size gives the same moments in the same order: none
// twice, none skipped, most relevant first, at most 3 per transcript; and the same moments whichever way the
// plan finds its candidates (search-plan.ts: the word's postings, or the scope read whole).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { searchQuerySchema, SEARCH_MAX_OFFSET, type SearchMoment } from "@/lib/search/schemas";
import { SCOPE_MAX_PASSAGES, SEARCH_MAX_CANDIDATES } from "@/lib/search/search-plan";

const TRANSCRIPTS = 1_200;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let userId: string;
let searchPublic: typeof import("@/lib/search/search-moments").searchPublic;
let searchLibrary: typeof import("@/lib/search/search-moments").searchLibrary;
let searchPlanOf: typeof import("@/lib/search/find-moments").searchPlanOf;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ctx = await useTestDatabase();
  ({ searchPublic } = await import("@/lib/search/search-moments"));
  ({ searchLibrary } = await import("@/lib/search/search-moments"));
  ({ searchPlanOf } = await import("@/lib/search/find-moments"));
  userId = (await createUser(ctx.db)).id;
  // Three segments of about 200 characters each (three passages, cut by the app's trigger), each saying
  // "ocean" one to three times among other words; every transcript published and in the user's history.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
     SELECT 'fw-' || i, 'youtube', lpad(i::text, 11, 'f'), 'en', 'captions', 'Waves ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'f'),
       (SELECT jsonb_agg(jsonb_build_object('start', s * 10, 'end', s * 10 + 9, 'text',
          repeat('the ocean ', 1 + abs(hashint4(i * 3 + s)) % 3) || repeat('waves rolling over sand and stone ', 6)) ORDER BY s)
        FROM generate_series(0, 2) AS s)
     FROM generate_series(1, ${TRANSCRIPTS}) AS i`,
  );
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
     SELECT 'fh-' || i, $1, 'youtube', lpad(i::text, 11, 'f'), 'en', 'captions', 'fw-' || i, 'done', now() FROM generate_series(1, ${TRANSCRIPTS}) AS i`,
    userId,
  );
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
     SELECT 'fp-' || i, 'waves-' || i, $1, 'fw-' || i, now(), now() FROM generate_series(1, ${TRANSCRIPTS}) AS i`,
    userId,
  );
  // Twelve transcripts saying "lighthouse" once (fewer matches than are ranked): 1-6 in the user's history
  // (done), 7-9 in it with an error, 10-12 not in it.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
     SELECT 'lh-' || i, 'youtube', lpad(i::text, 11, 'l'), 'en', 'captions', 'Coast ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'l'),
       jsonb_build_array(jsonb_build_object('start', 0, 'end', 5, 'text', 'the old lighthouse on the cape, number ' || i))
     FROM generate_series(1, 12) AS i`,
  );
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
     SELECT 'lhh-' || i, $1, 'youtube', lpad(i::text, 11, 'l'), 'en', 'captions', 'lh-' || i, CASE WHEN i <= 6 THEN 'done' ELSE 'error' END, now()
     FROM generate_series(1, 9) AS i`,
    userId,
  );
  // The planner's figures (rows, the index's most common words) that the plan is chosen by.
  await ctx.db.$executeRawUnsafe(`ANALYZE "Transcript", "TranscriptPassage", "Transcription", "Publication"`);
});
afterAll(async () => ctx?.teardown());

const key = (m: SearchMoment) => `${m.transcript_id}:${m.segment_index}`;

/** Every page of `q`, `limit` at a time, until next_cursor is null. */
async function pages(
  search: (q: Record<string, unknown>) => Promise<{ results: SearchMoment[]; next_cursor: string | null }>,
  limit: number,
) {
  const all: SearchMoment[] = [];
  let cursor: string | null = null;
  do {
    const page = await search({ q: "ocean", limit, ...(cursor ? { cursor } : {}) });
    all.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

describe("a word in more passages than are ranked", () => {
  it("has more matches than SEARCH_MAX_CANDIDATES", async () => {
    const [row] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "TranscriptPassage" WHERE "tsv" @@ to_tsquery('english', 'ocean')`,
    );
    expect(row!.n).toBe(TRANSCRIPTS * 3);
    expect(row!.n).toBeGreaterThan(SEARCH_MAX_CANDIDATES);
  });

  const ways = [
    [
      "public, by the word's postings",
      (q: Record<string, unknown>) => searchPublic(searchQuerySchema.parse(q), { driver: "postings" }),
    ],
    [
      "public, every published passage read",
      (q: Record<string, unknown>) => searchPublic(searchQuerySchema.parse(q), { driver: "scope" }),
    ],
    [
      "library, by the word's postings",
      (q: Record<string, unknown>) => searchLibrary(userId, searchQuerySchema.parse(q)),
    ],
    [
      "library, every entry's passages read",
      (q: Record<string, unknown>) => searchLibrary(userId, searchQuerySchema.parse(q), { driver: "scope" }),
    ],
  ] as const;
  /** Each way's moments by pages of 50, kept for the comparison of the ways below. */
  const by50Of = new Map<string, SearchMoment[]>();
  for (const [name, search] of ways) {
    it(`${name}: pages of 20 and of 50 give the same moments, none twice, best first, 3 per transcript at most`, async () => {
      const by20 = await pages(search, 20);
      const by50 = await pages(search, 50);
      by50Of.set(name, by50);
      // The last page starts at SEARCH_MAX_OFFSET: 1,020 moments by 20, 1,050 by 50.
      expect(by20.map(key)).toEqual(by50.slice(0, by20.length).map(key));
      expect(new Set(by20.map(key)).size).toBe(by20.length);
      expect([by20.length, by50.length]).toEqual([SEARCH_MAX_OFFSET + 20, SEARCH_MAX_OFFSET + 50]);
      for (let i = 1; i < by20.length; i++) expect(by20[i]!.rank).toBeLessThanOrEqual(by20[i - 1]!.rank);
      const perTranscript = new Map<string, number>();
      for (const m of by20) perTranscript.set(m.transcript_id, (perTranscript.get(m.transcript_id) ?? 0) + 1);
      expect(Math.max(...perTranscript.values())).toBeLessThanOrEqual(3);
      // The same question asked again gives the same first page.
      expect((await search({ q: "ocean", limit: 50 })).results.map(key)).toEqual(by50.slice(0, 50).map(key));
    });
  }

  it("finds the same moments by the postings and by reading the scope whole", async () => {
    const [publicByPostings, publicWhole, libraryByPostings, libraryWhole] = await Promise.all(
      ways.map(([name, search]) => by50Of.get(name) ?? pages(search, 50)),
    );
    expect(publicWhole!.map(key)).toEqual(publicByPostings!.map(key));
    expect(libraryWhole!.map(key)).toEqual(libraryByPostings!.map(key));
    // Everything is published and in the library: the same moments.
    expect(libraryByPostings!.map(key)).toEqual(publicByPostings!.map(key));
  });

  it("reads the postings of a scope of more than SCOPE_MAX_PASSAGES passages, a smaller scope whole", async () => {
    const plan = (scope: Parameters<typeof searchPlanOf>[0], q: string) =>
      searchPlanOf(scope, searchQuerySchema.parse({ q }));
    expect(TRANSCRIPTS * 3).toBeGreaterThan(SCOPE_MAX_PASSAGES);
    expect(await plan({ kind: "public" }, "ocean")).toMatchObject({ driver: "postings", exact: true, prefix: 63 });
    expect(await plan({ kind: "library", userId }, '"old lighthouse" ocean')).toMatchObject({
      driver: "postings",
      exact: false,
    });
    const light = (await createUser(ctx.db)).id;
    expect(await plan({ kind: "library", userId: light }, "ocean")).toEqual({ driver: "scope" });
  });
});

describe("the library, a filter on everyone's passages", () => {
  it("finds the moments of the caller's done entries only", async () => {
    const found = await searchLibrary(userId, searchQuerySchema.parse({ q: "lighthouse", limit: 50 }));
    expect(found.results.map((m) => m.transcript_id).sort()).toEqual(["lh-1", "lh-2", "lh-3", "lh-4", "lh-5", "lh-6"]);
    // A phrase and an exclusion: the passages decide.
    const phrase = await searchLibrary(userId, searchQuerySchema.parse({ q: '"old lighthouse" -waves', limit: 50 }));
    expect(phrase.results.map(key).sort()).toEqual(found.results.map(key).sort());
    expect((await searchLibrary(userId, searchQuerySchema.parse({ q: '"lighthouse old"' }))).results).toEqual([]);
  });
});
