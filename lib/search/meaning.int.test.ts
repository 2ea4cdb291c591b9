// Search by meaning: the nearest passages by their stored vectors (made-up vectors of 4 dimensions), fused with the
// keyword moments; and exactly the keyword search's visibility: a private transcript, another reader's correction
// and an unpublished page never surface for anyone else. On PostgreSQL and on the embedded PGlite, with the same
// statements.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useTestDatabase } from "@/test/app-db";
import { indexCorrections, storeTranscript } from "@/test/search";
import { defaultModelFile } from "@/lib/embeddings/default-model";
import { encodeWordVectors } from "@/lib/embeddings/word-vectors";
import { migratedPglite } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: unknown;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let dir: string;
let search: typeof import("./search-moments");
let schemas: typeof import("./schemas");
const ids: Record<string, string> = {};

const VOCABULARY: [string, number[]][] = [
  ["the", [1, 1, 1, 1]],
  ["a", [1, 1, 1, 0.9]],
  ["cat", [9, 1, 0, 0]],
  ["kitten", [8, 2, 0, 0]],
  ["puppy", [7, 3, 0, 0]],
  ["engine", [0, 0, 9, 1]],
  ["rocket", [0, 1, 8, 2]],
  ["violin", [0, 9, 0, 1]],
  ["music", [5, 5, 0, 0]],
  ["silence", [-3, -3, -3, 9]],
];
const segments = (text: string) => [{ start: 0, end: 9, text }];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "meaning-"));
  process.env.DATA_DIR = dir;
  process.env.SEARCH_EMBEDDER = "default";
  // Made-up word vectors, and no distilled ones beside to outweigh them.
  process.env.SEARCH_DISTILLED_WORDS = "0";
  ctx = await useTestDatabase();
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const embedder = configuredEmbedder()!;
  const file = defaultModelFile(dir);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    encodeWordVectors(
      VOCABULARY.map(([word, vector]) => ({ word, vector })),
      4,
    ),
  );
  search = await import("./search-moments");
  schemas = await import("./schemas");
  postgres = (globalThis as { verbatimDb?: unknown }).verbatimDb;
  pglite = await migratedPglite();
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  for (const [db, connection] of [
    [ctx.db, postgres],
    [pgliteDb, Promise.resolve({ client: pgliteDb, kind: "pglite", pglite })],
  ] as const) {
    (globalThis as { verbatimDb?: unknown }).verbatimDb = connection;
    await seed(db as PrismaClient);
    while ((await embedMissingPassages(embedder)).embedded > 0);
  }
});

async function seed(db: PrismaClient) {
  await db.user.createMany({
    data: ["reader", "other", "liner"].map((id) => ({ id, email: `${id}@example.test` })),
  });
  const store = async (key: string, text: string, userIds: string[], published: boolean | null) => {
    const { transcript } = await storeTranscript(db, { segments: segments(text), lang: "en", title: key, userIds });
    ids[key] = transcript.id;
    if (published !== null)
      await db.publication.create({
        data: {
          slug: key,
          userId: userIds[0]!,
          transcriptId: transcript.id,
          publishedAt: published ? new Date() : null,
        },
      });
  };
  await store("kittens", "the kitten slept by the fire", ["reader"], true);
  // Two lines in one passage, the second the one a question about cats asks for.
  await storeTranscript(db, {
    segments: [
      { start: 0, end: 4, text: "the music stopped" },
      { start: 4, end: 8, text: "the kitten slept" },
    ],
    lang: "en",
    title: "lines",
    userIds: ["liner"],
  });
  await store("rockets", "a rocket engine roared at dawn", ["reader"], true);
  await store("private", "the cat of someone else", ["other"], null);
  await store("unpublished", "a cat on a page taken down", ["other"], false);
  // Another reader's correction of a transcript the reader has too: only its author searches it.
  await store("shared", "a violin played softly", ["reader", "other"], null);
  // The reader's followed show: only the kitten episode is one of its published episodes.
  await db.$executeRawUnsafe(
    `INSERT INTO "Follow" ("id", "userId", "url", "kind", "showSlug", "updatedAt")
     VALUES ('show', 'reader', 'https://example.test/feed.rss', 'podcast', 'cat-show-1a2b3c4d', now())`,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "FollowItem" ("id", "followId", "guid", "title", "url", "status", "transcriptId")
     VALUES ('episode', 'show', 'g1', 'Kittens', 'https://example.test/1', 'done', $1)`,
    ids.kittens,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('corr', 'other', $1, $2::jsonb, 10)`,
    ids.shared,
    JSON.stringify(segments("a cat played softly")),
  );
  await indexCorrections(db);
}

afterAll(async () => {
  (globalThis as { verbatimDb?: unknown }).verbatimDb = postgres;
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

const titles = (response: { results: { title: string | null }[] }) => response.results.map((m) => m.title);
const library = async (userId: string, q: string, mode?: string) =>
  titles(await search.searchLibrary(userId, schemas.searchQuerySchema.parse({ q, ...(mode ? { mode } : {}) })));
const published = async (q: string, mode?: string) =>
  titles(await search.searchPublic(schemas.publicSearchQuerySchema.parse({ q, ...(mode ? { mode } : {}) })));

describe.each(["PostgreSQL", "PGlite"])("search by meaning on %s", (database) => {
  beforeEach(() => {
    (globalThis as { verbatimDb?: unknown }).verbatimDb =
      database === "PGlite" ? Promise.resolve({ client: pgliteDb, kind: "pglite", pglite }) : postgres;
  });

  it("finds a moment that means the query though it never says its words, first, by default and on request", async () => {
    expect(await library("reader", "cat", "keyword")).toEqual([]);
    expect((await library("reader", "cat"))[0]).toBe("kittens");
    expect((await library("reader", "cat", "meaning"))[0]).toBe("kittens");
    expect((await published("puppy"))[0]).toBe("kittens");
  });

  it("says how a moment matched and how close, and marks and links the line that answers", async () => {
    const { results } = await search.searchLibrary("liner", schemas.searchQuerySchema.parse({ q: "cat" }));
    expect(results).toHaveLength(1);
    const [moment] = results;
    expect(moment!.matched).toBe("meaning");
    expect(["close", "related", "loose"]).toContain(moment!.closeness);
    expect(moment!.segment_index).toBe(1);
    expect(moment!.start).toBe(4);
    expect(moment!.highlights.map(([a, b]) => moment!.snippet.slice(a, b))).toEqual(["the kitten slept"]);
    expect(moment!.links.viewer).toContain("t=4");
    const [both] = (await search.searchLibrary("liner", schemas.searchQuerySchema.parse({ q: "kitten" }))).results;
    expect(both!.matched).toBe("both");
    expect(both!.highlights.map(([a, b]) => both!.snippet.slice(a, b))).toEqual(["kitten"]);
    const [words] = (
      await search.searchLibrary("liner", schemas.searchQuerySchema.parse({ q: "kitten", mode: "keyword" }))
    ).results;
    expect([words!.matched, words!.closeness]).toEqual(["words", null]);
  });

  it("compares every passage of a scope whole without a vector index, up to its bound; beyond it, the words' candidates", async () => {
    const meaning = await import("./meaning");
    const scope = { kind: "library", userId: "reader" } as const;
    const ask = { q: "cat", platform: null, lang: null };
    const exact = await meaning.nearestPassages(scope, ask, 10, undefined, { index: false });
    expect(exact.length).toBeGreaterThan(0);
    // No passage the reader sees says "cat": beyond the bound, nothing is a candidate.
    expect(await meaning.nearestPassages(scope, ask, 10, undefined, { index: false, exactMax: 1 })).toEqual([]);
  });

  it("finds nothing by meaning for what no visible passage is like", async () => {
    expect(await published("silence", "meaning")).toEqual([]);
    expect(await published("silence")).toEqual([]);
  });

  it("ranks the moments that say every word of the query first", async () => {
    expect(await library("reader", "engine", "keyword")).toEqual(["rockets"]);
    expect((await library("reader", "engine"))[0]).toBe("rockets");
    // "the" is said in the kitten's passage only, which says nothing of a rocket: it is still first.
    expect((await library("reader", "the rocket"))[0]).toBe("rockets");
  });

  it("sees only what keyword search may see: no private transcript, no unpublished page, no one else's correction", async () => {
    for (const mode of ["hybrid", "meaning"]) {
      const mine = await library("reader", "cat", mode);
      expect(mine).not.toContain("private");
      expect(mine).not.toContain("unpublished");
      const everyone = await published("cat", mode);
      expect(everyone).not.toContain("private");
      expect(everyone).not.toContain("unpublished");
      expect(everyone).not.toContain("shared");
      // The reader sees the shared transcript as it was said (a violin); its corrector sees their cat.
      const shared = await search.searchLibrary("reader", schemas.searchQuerySchema.parse({ q: "violin", mode }));
      expect(shared.results.find((m) => m.title === "shared")?.context.text).toContain("violin");
      const theirs = await search.searchLibrary("other", schemas.searchQuerySchema.parse({ q: "kitten", mode }));
      expect(theirs.results.map((m) => m.context.text)).toContain("a cat played softly");
      expect(theirs.results.map((m) => m.context.text)).not.toContain("a violin played softly");
      const readers = await search.searchLibrary("reader", schemas.searchQuerySchema.parse({ q: "kitten", mode }));
      expect(readers.results.map((m) => m.context.text)).not.toContain("a cat played softly");
    }
  });

  it("searches a show's published episodes only", async () => {
    const inShow = async (q: string, mode: string) =>
      titles(await search.searchPublic(schemas.publicSearchQuerySchema.parse({ q, mode, show: "cat-show-1a2b3c4d" })));
    for (const mode of ["hybrid", "meaning"]) {
      expect(await inShow("cat", mode)).toEqual(["kittens"]);
      // The rocket transcript is published, but not one of the show's episodes.
      expect(await inShow("rocket", mode)).toEqual([]);
      expect((await published("rocket", mode))[0]).toBe("rockets");
    }
  });

  it("pages through one fused list without repeating a moment", async () => {
    // Near the kitten and the violin alike.
    const first = await search.searchLibrary("reader", schemas.searchQuerySchema.parse({ q: "music", limit: "1" }));
    expect(first.results).toHaveLength(1);
    expect(first.next_cursor).not.toBeNull();
    const second = await search.searchLibrary(
      "reader",
      schemas.searchQuerySchema.parse({ q: "music", limit: "1", cursor: first.next_cursor }),
    );
    expect(second.results).toHaveLength(1);
    expect(second.results.map((m) => m.transcript_id)).not.toContain(first.results[0]!.transcript_id);
  });
});
