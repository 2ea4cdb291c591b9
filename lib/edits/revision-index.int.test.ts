import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import type { Segment } from "@/lib/formats";
import { searchQuerySchema } from "@/lib/search/schemas";

// A correction is indexed for search after its save, in steps (lib/edits/revision-index.ts), on PostgreSQL: search
// serves the version before it until every passage is indexed, a stop part-way is finished at the next start,
// and the replaced version's passages go. Steps here index one passage each (a budget of 0 ms), driven one by one.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let index: typeof import("@/lib/edits/revision-index");
let saveEdit: typeof import("@/lib/edits/revisions").saveEdit;
let searchLibrary: typeof import("@/lib/search/search-moments").searchLibrary;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "1000000";
  ctx = await useTestDatabase();
  index = await import("@/lib/edits/revision-index");
  ({ saveEdit } = await import("@/lib/edits/revisions"));
  ({ searchLibrary } = await import("@/lib/search/search-moments"));
});
afterAll(async () => {
  await index?.revisionIndexIdle();
  await ctx?.teardown();
});

/** The moments of `q` in the user's library. */
const found = async (userId: string, q: string) =>
  (await searchLibrary(userId, searchQuerySchema.parse({ q }))).results.length;

/** The transcript's segments with `word` added to its first and last lines (its first and last passages). */
const withWord = (segments: Segment[], word: string) =>
  segments.map((s, i) => (i === 0 || i === segments.length - 1 ? { ...s, text: `${s.text} ${word}` } : s));

/** A correction stored as a save's transaction stores it, later than any before it; its id. */
async function stored(userId: string, transcriptId: string, segments: Segment[], secondsLater = 1): Promise<string> {
  const id = randomUUID();
  await ctx.db.$executeRaw`
    INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes", "createdAt")
    VALUES (${id}, ${userId}, ${transcriptId}, ${JSON.stringify(segments)}::jsonb, 10, ${new Date(Date.now() + secondsLater * 1000)})`;
  return id;
}

const passagesOf = async (revisionId: string) =>
  ctx.db.$queryRaw<{ seq: number; segFrom: number; segTo: number; tsv: string; postings: string }[]>`
    SELECT rp."seq", rp."segFrom", rp."segTo", rp."tsv"::text AS "tsv",
           (SELECT string_agg(st."term" || ':' || sp."impact", ' ' ORDER BY st."term")
            FROM "SearchPosting" sp JOIN "SearchTerm" st ON st."id" = sp."termId" WHERE sp."pid" = rp."pid") AS "postings"
    FROM "RevisionPassage" rp WHERE rp."revisionId" = ${revisionId} ORDER BY rp."seq"`;

describe("a correction indexed in steps", () => {
  it("is searched once every passage is indexed; until then search serves the version before it", async () => {
    const user = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, user.id, { videoId: "stepindex01" });
    const original = transcript.segments as unknown as Segment[];
    await saveEdit(user.id, transcript.id, { segments: withWord(original, "zeppelinian") });
    await index.revisionIndexIdle();
    expect(await found(user.id, "zeppelinian")).toBe(2);
    const first = await ctx.db.transcriptRevision.findFirstOrThrow({ where: { userId: user.id } });

    const next = await stored(user.id, transcript.id, withWord(original, "quasarine"));
    // The first step cuts it into passages, none of them indexed yet.
    expect(await index.indexRevisionStep(next, 0)).toBe("more");
    const cut = await passagesOf(next);
    expect(cut.length).toBeGreaterThan(2);
    expect(cut.map((p) => p.postings)).toEqual(cut.map(() => null));
    // Then one passage a step: the first, which holds the new word, is indexed and posted, and not searched.
    expect(await index.indexRevisionStep(next, 0)).toBe("more");
    const written = await passagesOf(next);
    expect(written[0]!.postings).toContain("quasarin");
    expect(written.slice(1).map((p) => p.postings)).toEqual(cut.slice(1).map(() => null));
    expect([await found(user.id, "quasarine"), await found(user.id, "zeppelinian")]).toEqual([0, 2]);

    // The step after the one that indexes the last passage finds nothing left to cut, and serves it.
    let steps = 2;
    for (;;) {
      steps++;
      if ((await index.indexRevisionStep(next, 0)) === "done") break;
      expect([await found(user.id, "quasarine"), await found(user.id, "zeppelinian")]).toEqual([0, 2]);
    }
    expect(steps).toBe(cut.length + 2);
    expect([await found(user.id, "quasarine"), await found(user.id, "zeppelinian")]).toEqual([2, 0]);

    // The replaced version's passages and postings go, a step at a time.
    const replaced = (await passagesOf(first.id)).length;
    expect(replaced).toBeGreaterThan(1);
    expect(await index.dropReplacedPassages(0)).toBe(replaced);
    expect(await passagesOf(first.id)).toEqual([]);
    expect(await index.dropReplacedPassages(0)).toBe(0);
    expect(await found(user.id, "quasarine")).toBe(2);
  });

  it("a newer save replaces one still being indexed: the newer is indexed, the older's passages go", async () => {
    const user = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, user.id, { videoId: "stepindex02" });
    const original = transcript.segments as unknown as Segment[];
    const older = await stored(user.id, transcript.id, withWord(original, "marmalade"), 1);
    expect(await index.indexRevisionStep(older, 0)).toBe("more");
    const newer = await stored(user.id, transcript.id, withWord(original, "xylophonic"), 2);
    expect(await index.indexRevisionStep(older, 0)).toBe("stale");
    expect(await index.indexRevision(newer, { stepMs: 0 })).toBe("done");
    expect([await found(user.id, "marmalade"), await found(user.id, "xylophonic")]).toEqual([0, 2]);
    const cut = (await passagesOf(older)).length;
    expect(cut).toBeGreaterThan(1);
    expect(await index.dropReplacedPassages(0)).toBe(cut);
    expect(await passagesOf(older)).toEqual([]);
  });

  it("cut short by a stop, is finished at the next start, as an uninterrupted indexing would have made it", async () => {
    const author = await createUser(ctx.db);
    const other = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, author.id, { videoId: "stepindex03" });
    await seedTranscript(ctx.db, other.id, { videoId: "stepindex03" });
    const segments = withWord(transcript.segments as unknown as Segment[], "quokkaesque");
    const cut = await stored(author.id, transcript.id, segments);
    // Two steps, then the process stops: nothing of the work is left but what the database holds.
    expect(await index.indexRevisionStep(cut, 0)).toBe("more");
    expect(await index.indexRevisionStep(cut, 0)).toBe("more");
    expect(await found(author.id, "quokkaesque")).toBe(0);

    // What the next start runs (instrumentation.ts: resumeRevisionIndexing).
    expect(await index.indexPendingRevisions(0)).toEqual({ indexed: 1, dropped: 0 });
    expect(await found(author.id, "quokkaesque")).toBe(2);
    expect(await found(other.id, "quokkaesque")).toBe(0);

    // The same correction indexed uninterrupted (steps without a budget: its cut, its passages, the switch): the
    // same passages, terms and impacts.
    const whole = await stored(other.id, transcript.id, segments);
    expect(await index.indexRevision(whole, { stepMs: 2_147_483_647 })).toBe("done");
    const resumed = await passagesOf(cut);
    expect(resumed.length).toBeGreaterThan(2);
    expect(resumed).toEqual(await passagesOf(whole));
    // Every segment in exactly one passage, in order.
    expect(resumed.map((p) => [p.segFrom, p.segTo])).toEqual(
      resumed.map((p, i) => [i === 0 ? 0 : resumed[i - 1]!.segTo + 1, p.segTo]),
    );
    expect(resumed.at(-1)!.segTo).toBe(segments.length - 1);
  });

  it("a long correction is cut a range of segments at a time, and the one it replaces leaves no passage or posting", async () => {
    const user = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, user.id, { videoId: "stepindex04" });
    // 2,500 one-word segments: at most 1,000 are cut in a step.
    const many = Array.from({ length: 2500 }, (_, i) => ({
      start: i,
      end: i + 0.5,
      text: i === 2499 ? "velociraptorial" : `w${i}`,
    }));
    const first = await stored(user.id, transcript.id, many);
    const ranges: number[][] = [];
    for (;;) {
      const before = (await passagesOf(first)).length;
      const state = await index.indexRevisionStep(first, 0);
      const after = await passagesOf(first);
      if (after.length > before) ranges.push([after[before]!.segFrom, after.at(-1)!.segTo]);
      if (state === "done") break;
    }
    expect(ranges).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2499],
    ]);
    expect(await found(user.id, "velociraptorial")).toBe(1);

    // 30 segments of 4,900 characters: a range ends past about 100,000 characters.
    const long = Array.from({ length: 30 }, (_, i) => ({ start: i, end: i + 0.5, text: `${"a ".repeat(2449)}z${i}` }));
    const second = await stored(user.id, transcript.id, long, 2);
    expect(await index.indexRevisionStep(second, 0)).toBe("more");
    expect((await passagesOf(second)).at(-1)!.segTo).toBe(20);
    expect(await index.indexRevision(second, { stepMs: 0 })).toBe("done");
    const passages = await passagesOf(second);
    expect(passages.map((p) => [p.segFrom, p.segTo])).toEqual(
      passages.map((p, i) => [i === 0 ? 0 : passages[i - 1]!.segTo + 1, p.segTo]),
    );
    expect(passages.at(-1)!.segTo).toBe(29);
    expect(await found(user.id, "velociraptorial")).toBe(0);

    expect(await index.dropReplacedPassages(0)).toBeGreaterThan(0);
    expect(await passagesOf(first)).toEqual([]);
    const [orphans] = await ctx.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "SearchPosting" sp
      WHERE NOT EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."pid" = sp."pid")
        AND NOT EXISTS (SELECT 1 FROM "TranscriptPassage" tp WHERE tp."pid" = sp."pid")`;
    expect(orphans!.n).toBe(0);
  });
});
