import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { gritTrack, mempoolChineseTrack, storeTranscript } from "@/test/search";
import type { SearchScope } from "@/lib/search/search-statement";

// The vocabulary read while typing and for "did you mean", on the real TED "Grit" captions and mempool's Chinese
// promo (test/fixtures/captions/README.md): a suggestion is a word a passage the caller may see holds, as written there.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let suggest: typeof import("@/lib/search/suggest");
let reader: string;
let other: string;
let gritId: string;
const english = ["english", "simple"];

beforeAll(async () => {
  ctx = await useTestDatabase();
  suggest = await import("@/lib/search/suggest");
  reader = (await createUser(ctx.db)).id;
  other = (await createUser(ctx.db)).id;
  gritId = (await storeTranscript(ctx.db, { segments: gritTrack(), lang: "en", title: "Grit", userIds: [reader] }))
    .transcript.id;
  await storeTranscript(ctx.db, { segments: mempoolChineseTrack(), lang: "zh", title: "mempool", userIds: [reader] });
  await storeTranscript(ctx.db, {
    segments: [{ start: 0, end: 3, text: "The zeppelin landed at dawn." }],
    lang: "en",
    title: "Airships",
    userIds: [other],
  });
});
afterAll(async () => ctx?.teardown());

const library = (userId: string): SearchScope => ({ kind: "library", userId });

describe("a word begun", () => {
  for (const small of [true, false]) {
    const read = small ? "from the scope's passages" : "from the vocabulary, each word probed";
    it(`stands for the words the caller's passages hold that it begins, shortest first (${read})`, async () => {
      const vocabulary = { scope: library(reader), small };
      const terms = await suggest.termsStartingWith(ctx.db, vocabulary, "mindse");
      expect(terms).toContain("mindset");
      expect(terms.every((term) => term.startsWith("mindse"))).toBe(true);
      const persev = await suggest.termsStartingWith(ctx.db, vocabulary, "persev");
      expect(persev.length).toBeGreaterThan(0);
      expect(persev).toEqual([...persev].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)));
      expect(await suggest.termsStartingWith(ctx.db, vocabulary, "%")).toEqual([]);
      // Only someone else's transcript holds "zeppelin".
      expect(await suggest.termsStartingWith(ctx.db, vocabulary, "zep")).toEqual([]);
      expect(await suggest.termsStartingWith(ctx.db, { scope: library(other), small }, "zep")).toEqual(["zeppelin"]);
    });

    it(`a CJK character begins the bigrams it starts (${read})`, async () => {
      const terms = await suggest.termsStartingWith(ctx.db, { scope: library(reader), small }, "闪");
      expect(terms).toContain("闪电");
      expect(terms.every((term) => term.startsWith("闪"))).toBe(true);
    });
  }
});

describe("did you mean", () => {
  it("replaces a misspelt word by the likeliest word the caller's passages hold, as they write it", async () => {
    expect(await suggest.didYouMean(ctx.db, library(reader), "marathn", english)).toBe("marathon");
    expect(await suggest.didYouMean(ctx.db, library(reader), "grwth mindset", english)).toBe("growth mindset");
  });

  it("while typing, leaves a word begun that some word of the index begins, and corrects one that none does", async () => {
    expect(await suggest.didYouMean(ctx.db, library(reader), "grwth mindse", english, true)).toBe("growth mindse");
    expect(await suggest.didYouMean(ctx.db, library(reader), "grwth mindsqq", english, true)).toBe("growth mindset");
    expect(await suggest.didYouMean(ctx.db, library(reader), "marathn", english, true)).toBe("marathon");
  });

  it("leaves a word some language of the search reads as a stop word (none of its passages is indexed by it)", async () => {
    expect(await suggest.didYouMean(ctx.db, library(reader), "marathn in", english)).toBe("marathon in");
    expect(await suggest.didYouMean(ctx.db, library(reader), "in", english)).toBeNull();
  });

  it("keeps known words, phrases and exclusions, and says nothing when nothing is to change", async () => {
    expect(await suggest.didYouMean(ctx.db, library(reader), "marathon", english)).toBeNull();
    expect(await suggest.didYouMean(ctx.db, library(reader), '"grwth mindset"', english)).toBeNull();
    expect(await suggest.didYouMean(ctx.db, library(reader), "qqqqxz", english)).toBeNull();
  });

  it("never suggests a word only someone else's transcripts hold, nor an unpublished one in public", async () => {
    expect(await suggest.didYouMean(ctx.db, library(other), "zepelin", english)).toBe("zeppelin");
    expect(await suggest.didYouMean(ctx.db, library(reader), "zepelin", english)).toBeNull();
    expect(await suggest.didYouMean(ctx.db, { kind: "public" }, "marathn", english)).toBeNull();
    await ctx.db.publication.create({
      data: { slug: "grit-suggest", userId: reader, transcriptId: gritId, publishedAt: new Date() },
    });
    expect(await suggest.didYouMean(ctx.db, { kind: "public" }, "marathn", english)).toBe("marathon");
  });
});

describe("the search's answer", () => {
  it("carries did_you_mean when its first page is empty, and only then", async () => {
    const { searchLibrary } = await import("@/lib/search/search-moments");
    const { searchQuerySchema } = await import("@/lib/search/schemas");
    const ask = (q: string, extra: Record<string, string> = {}) =>
      searchLibrary(reader, searchQuerySchema.parse({ q, ...extra }));
    const misspelt = await ask("marathn");
    expect(misspelt.results).toEqual([]);
    expect(misspelt.did_you_mean).toBe("marathon");
    expect((await ask(misspelt.did_you_mean!)).results.length).toBeGreaterThan(0);
    expect((await ask("marathon")).did_you_mean).toBeNull();
    // While typing (History's box), in every language the search reads: a misspelling is corrected all the same.
    expect((await ask("marathn", { prefix: "true" })).did_you_mean).toBe("marathon");
    expect((await ask("Mindsett", { prefix: "true" })).did_you_mean).toBe("mindset");
    expect((await ask("mindse", { prefix: "true" })).results.length).toBeGreaterThan(0);
  });

  it("while typing, finds the words a word begun begins", async () => {
    const { searchLibrary } = await import("@/lib/search/search-moments");
    const { searchQuerySchema } = await import("@/lib/search/schemas");
    const ask = (q: string, prefix: boolean) =>
      searchLibrary(reader, searchQuerySchema.parse({ q, prefix: String(prefix) }));
    const typed = await ask("growth minds", true);
    expect(typed.results.length).toBeGreaterThan(0);
    expect(typed.results.some((m) => /mindset/i.test(m.snippet))).toBe(true);
    expect((await ask("marath", true)).results.map((m) => m.segment_index)).toEqual([60]);
    expect((await ask("marath", false)).results).toEqual([]);
  });

  it("finds the same moments by postings as by the scope, a CJK character by the bigrams it begins", async () => {
    const { findMoments } = await import("@/lib/search/find-moments");
    const { searchQuerySchema } = await import("@/lib/search/schemas");
    for (const q of ["growth minds", "persev", "闪"]) {
      const query = searchQuerySchema.parse({ q, prefix: "true", limit: "50" });
      const key = (m: { transcriptId: string; seq: number }) => `${m.transcriptId}:${m.seq}`;
      const byScope = (await findMoments(library(reader), query, { driver: "scope" })).map(key);
      const byPostings = (await findMoments(library(reader), query, { driver: "postings" })).map(key);
      expect(byScope.length, q).toBeGreaterThan(0);
      expect(byPostings, q).toEqual(byScope);
    }
  });
});
