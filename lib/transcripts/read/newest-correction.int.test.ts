import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import type { Segment } from "@/lib/formats";

// "A reader's newest correction wins" is written in three places: the read model (asSeenBy, TypeScript), the
// public page's version statement (publishedVersion, the ETag's time) and the search statement (a correction's
// passages replace the transcript's for its author; the trigger keeps only the newest correction's). This test
// holds them to one answer on one transcript (the real TED "Grit" captions, test/publishing.ts) corrected twice.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

describe("a reader's newest correction wins, in every copy of the rule", () => {
  it("the read model, the public page's version and search all take the newest correction", async () => {
    const { asSeenBy } = await import("@/lib/transcripts/read");
    const { publishedVersion } = await import("@/lib/publishing/public-transcript");
    const { searchLibrary, searchPublic } = await import("@/lib/search/search-moments");
    const { searchQuerySchema } = await import("@/lib/search/schemas");

    const author = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, author.id, { videoId: "newestcorr1" });
    const original = transcript.segments as unknown as Segment[];
    // Saved the way lib/edits saves them: one row each, in the order they were made.
    const save = (word: string, createdAt: Date) => {
      const segments = original.map((s, i) => (i === 0 ? { ...s, text: `The ${word} moment.` } : s));
      return ctx.db.transcriptRevision.create({
        data: {
          userId: author.id,
          transcriptId: transcript.id,
          segments: segments as object[],
          sizeBytes: JSON.stringify(segments).length,
          createdAt,
        },
      });
    };
    const later = new Date(transcript.fetchedAt.getTime() + 60_000);
    await save("xylophonic", new Date(later.getTime() - 30_000));
    const newest = await save("zeppelinian", later);
    const slug = `newest-${transcript.id}`;
    await ctx.db.publication.create({
      data: { slug, userId: author.id, transcriptId: transcript.id, publishedAt: new Date() },
    });

    const seen = await asSeenBy(author.id, transcript);
    expect(seen.revisionId).toBe(newest.id);
    expect(seen.fetchedAt).toEqual(newest.createdAt);
    expect((await publishedVersion(slug))?.fetchedAt).toEqual(seen.fetchedAt);

    const found = async (search: typeof searchPublic, q: string) =>
      (await search(searchQuerySchema.parse({ q }))).results.length;
    const inLibrary = (q: string) => found((query) => searchLibrary(author.id, query), q);
    expect([await inLibrary("zeppelinian"), await found(searchPublic, "zeppelinian")]).toEqual([1, 1]);
    expect([await inLibrary("xylophonic"), await found(searchPublic, "xylophonic")]).toEqual([0, 0]);
  });
});
