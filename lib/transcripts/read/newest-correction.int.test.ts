import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import { indexCorrections } from "@/test/search";
import type { Segment } from "@/lib/formats";

// "A reader's newest correction wins" is written in three places: the read model (asSeenBy, TypeScript, and
// segmentsTextAsSeenBy, which the public files read through), the public page's version statement
// (publishedVersion, the ETag's time) and the search statement (a correction's passages replace the transcript's
// for its author; the trigger keeps only the newest correction's). This test holds them to one answer on one
// transcript (the real TED "Grit" captions, test/publishing.ts) corrected twice by its publisher and, later still,
// by another reader, whose correction no copy of the rule may take for the publisher's.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

describe("a reader's newest correction wins, in every copy of the rule", () => {
  it("the read model, the public page's version, its files and search all take the publisher's newest correction", async () => {
    const { asSeenBy } = await import("@/lib/transcripts/read");
    const { publishedVersion, validators } = await import("@/lib/publishing/public-transcript");
    const { publicFile } = await import("@/lib/publishing/public-files");
    const { searchLibrary, searchPublic } = await import("@/lib/search/search-moments");
    const { searchQuerySchema } = await import("@/lib/search/schemas");

    const author = await createUser(ctx.db);
    const reader = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, author.id, { videoId: "newestcorr1" });
    await seedTranscript(ctx.db, reader.id, { videoId: "newestcorr1" });
    const original = transcript.segments as unknown as Segment[];
    // Saved the way lib/edits saves them: one row each, in the order they were made.
    const save = (userId: string, word: string, createdAt: Date) => {
      const segments = original.map((s, i) => (i === 0 ? { ...s, text: `The ${word} moment.` } : s));
      return ctx.db.transcriptRevision.create({
        data: {
          userId,
          transcriptId: transcript.id,
          segments: segments as object[],
          sizeBytes: JSON.stringify(segments).length,
          createdAt,
        },
      });
    };
    const later = new Date(transcript.fetchedAt.getTime() + 60_000);
    await save(author.id, "xylophonic", new Date(later.getTime() - 30_000));
    const newest = await save(author.id, "zeppelinian", later);
    const readers = await save(reader.id, "quasarine", new Date(later.getTime() + 30_000));
    await indexCorrections(ctx.db);
    const slug = `newest-${transcript.id}`;
    await ctx.db.publication.create({
      data: { slug, userId: author.id, transcriptId: transcript.id, publishedAt: new Date() },
    });

    const seen = await asSeenBy(author.id, transcript);
    expect(seen.revisionId).toBe(newest.id);
    expect(seen.fetchedAt).toEqual(newest.createdAt);
    expect((await asSeenBy(reader.id, transcript)).revisionId).toBe(readers.id);
    const version = await publishedVersion(slug);
    expect(version?.fetchedAt).toEqual(seen.fetchedAt);

    const etagOf = (v: NonNullable<typeof version>) => validators(v).etag;
    const file = await publicFile(slug, { download: "text" }, version!, etagOf);
    expect(file.version).toEqual(version);
    const text = new TextDecoder().decode(file.bytes);
    expect(text).toContain("The zeppelinian moment.");
    expect(text).not.toMatch(/xylophonic|quasarine/);

    const found = async (search: typeof searchPublic, q: string) =>
      (await search(searchQuerySchema.parse({ q }))).results.length;
    const inLibrary = (q: string) => found((query) => searchLibrary(author.id, query), q);
    expect([await inLibrary("zeppelinian"), await found(searchPublic, "zeppelinian")]).toEqual([1, 1]);
    expect([await inLibrary("xylophonic"), await found(searchPublic, "xylophonic")]).toEqual([0, 0]);
    expect([await inLibrary("quasarine"), await found(searchPublic, "quasarine")]).toEqual([0, 0]);
  });
});
