// A question no moment holds every word of, in a library that says one of its rarer words: that moment is offered,
// labelled as holding some of its words, its word marked; a word said nearly everywhere brings nothing. Without an
// embedder (SEARCH_EMBEDDER=off), so what is checked is the words' side alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createUser, useTestDatabase } from "@/test/app-db";
import { storeTranscript } from "@/test/search";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let userId: string;
let search: typeof import("@/lib/search/search-moments");
let schemas: typeof import("@/lib/search/schemas");

const segments = (...texts: string[]) => texts.map((text, i) => ({ start: i * 5, end: i * 5 + 5, text }));

beforeAll(async () => {
  Object.assign(process.env, { SEARCH_EMBEDDER: "off", APP_URL: "https://verbatim.example" });
  ctx = await useTestDatabase();
  db = ctx.db;
  userId = (await createUser(db)).id;
  await storeTranscript(db, {
    segments: segments("Out here the farmers plant sorghum before the rains.", "It needs little water."),
    lang: "en",
    title: "Dry country",
    userIds: [userId],
  });
  for (let i = 0; i < 8; i++)
    await storeTranscript(db, {
      segments: segments(`People grow all sorts of things, story ${i}.`),
      lang: "en",
      title: `Gardens ${i}`,
      userIds: [userId],
    });
  search = await import("@/lib/search/search-moments");
  schemas = await import("@/lib/search/schemas");
});
afterAll(async () => ctx?.teardown());

const ask = (q: string, mode = "hybrid") => search.searchLibrary(userId, schemas.searchQuerySchema.parse({ q, mode }));

describe("a question no moment holds every word of", () => {
  it("finds the moment that says its rarer word, labelled some_words, that word marked", async () => {
    const found = await ask("which cereal do the farmers grow");
    expect(found.results).toHaveLength(1);
    const [moment] = found.results;
    expect(moment).toMatchObject({ title: "Dry country", matched: "some_words", closeness: null, segment_index: 0 });
    expect(moment!.highlights.map(([a, b]) => moment!.snippet.slice(a, b))).toEqual(["farmers"]);
    expect(found.nothing_close).toBe(false);
  });

  it("brings nothing by a word said in most passages, nor in keyword mode, nor for a quoted phrase", async () => {
    expect((await ask("how do gardeners grow tulips")).results).toEqual([]);
    expect((await ask("which cereal do the farmers grow", "keyword")).results).toEqual([]);
    expect((await ask('"cereal farmers" grow')).results).toEqual([]);
  });

  it("still offers the likelier spelling of a misspelt word beside moments of some of the words", async () => {
    const found = await ask("farmers plant sorgum");
    expect(found.results.map((m) => m.matched)).toEqual(["some_words"]);
    expect(found.did_you_mean).toBe("farmers plant sorghum");
  });

  it("is the whole-words search itself when a moment holds every word", async () => {
    const found = await ask("farmers plant sorghum");
    expect(found.results.map((m) => m.matched)).toEqual(["words"]);
  });
});
