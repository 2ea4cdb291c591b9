// A question about nothing in reach finds nothing by meaning, while a question in other words than its moment is
// still found: three tracks of the judged set (real speech) searched with the default embedder's real word vectors,
// on PostgreSQL without pgvector and on the embedded PGlite.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useTestDatabase } from "@/test/app-db";
import { storeTranscript } from "@/test/search";
import { JUDGED_QUERIES, JUDGED_TRACKS, judgedTrackSegments } from "@/test/fixtures/captions/judged-search";
import { migratedPglite, useSharedModels } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: unknown;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let dir: string;
let search: typeof import("./search-moments");
let schemas: typeof import("./schemas");
const USER = "asker";
/** Someone else, whose private transcript says what the asker's library says only apart. */
const OTHER = "neighbour";
/** Both its words are said in the three tracks, "school" of grit and "island" of the Komodo dragon, never near. */
const SAID_APART = "a school on an island";
const TRACKS = JUDGED_TRACKS.filter((t) => ["grit", "komodo", "energy"].includes(t.key));
const OFF_TOPIC = [
  "how do I descale a kettle",
  "how to grow tomatoes on a balcony",
  "which wax is best for a snowboard",
];
const PARAPHRASES = JUDGED_QUERIES.filter((j) =>
  [
    "believing that abilities can improve with effort",
    "she quit her corporate career to teach children",
    "solar power turned out far cheaper than forecasters expected",
  ].includes(j.q),
);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "off-topic-"));
  process.env.DATA_DIR = dir;
  await useSharedModels(dir);
  process.env.SEARCH_EMBEDDER = "default";
  // The word vectors alone: what this checks is the same with the distilled ones beside (the judged guard has them).
  process.env.SEARCH_DISTILLED_WORDS = "0";
  // Judged in a library of any size here; by default only in one of 2,000 passages or more (the test below).
  process.env.SEARCH_OFF_TOPIC_FROM_PASSAGES = "0";
  ctx = await useTestDatabase();
  postgres = (globalThis as { verbatimDb?: unknown }).verbatimDb;
  pglite = await migratedPglite();
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const embedder = configuredEmbedder()!;
  await embedder.prepare();
  search = await import("./search-moments");
  schemas = await import("./schemas");
  for (const [db, connection] of [
    [ctx.db, postgres],
    [pgliteDb, Promise.resolve({ client: pgliteDb, kind: "pglite", pglite })],
  ] as const) {
    (globalThis as { verbatimDb?: unknown }).verbatimDb = connection;
    const client = db as PrismaClient;
    await client.user.create({ data: { id: USER, email: "asker@example.test" } });
    await client.user.create({ data: { id: OTHER, email: "neighbour@example.test" } });
    await storeTranscript(client, {
      segments: [{ start: 0, end: 4, text: "The school on the island teaches every child to swim." }],
      lang: "en",
      title: "An island school",
      userIds: [OTHER],
    });
    for (const track of TRACKS)
      await storeTranscript(client, {
        segments: judgedTrackSegments(track),
        lang: "en",
        title: track.title,
        userIds: [USER],
      });
    while ((await embedMissingPassages(embedder)).embedded > 0);
  }
}, 300_000);

afterAll(async () => {
  (globalThis as { verbatimDb?: unknown }).verbatimDb = postgres;
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

const ask = (q: string, mode: string) =>
  search.searchLibrary(USER, schemas.searchQuerySchema.parse({ q, limit: "10", mode }));

describe.each(["PostgreSQL", "PGlite"])("a question about nothing in reach, on %s", (database) => {
  beforeEach(() => {
    (globalThis as { verbatimDb?: unknown }).verbatimDb =
      database === "PGlite" ? Promise.resolve({ client: pgliteDb, kind: "pglite", pglite }) : postgres;
  });

  it("finds no moment by meaning, and offers no spelling of its words", async () => {
    for (const q of OFF_TOPIC) {
      expect((await ask(q, "meaning")).results, q).toEqual([]);
      const fused = await ask(q, "hybrid");
      // And the answer says so.
      expect(fused.nothing_close, q).toBe(true);
      // Nothing by meaning: any moment holds its words, or some of its rarer ones, said as such.
      expect(
        fused.results.filter((m) => !["words", "some_words"].includes(m.matched) || m.closeness !== null),
        q,
      ).toEqual([]);
      // Its words are unsaid, not misspelt: each "corrected" to some word the library holds would mean nothing.
      if (fused.results.length === 0) expect(fused.did_you_mean, q).toBeNull();
    }
    // A misspelt word is still offered its spelling.
    expect((await ask("stamena", "hybrid")).did_you_mean).toBe("stamina");
  });

  it("finds nothing by meaning for a short question whose words are said only apart, whoever says them together", async () => {
    expect((await ask(SAID_APART, "meaning")).results).toEqual([]);
    expect((await ask(SAID_APART, "hybrid")).nothing_close).toBe(true);
    // Said together (grit's "school teacher"), the same kind of question is answered by meaning.
    const together = await ask("a teacher at school", "hybrid");
    expect(together.nothing_close).toBe(false);
    expect(together.results.some((m) => m.matched !== "words")).toBe(true);
  });

  it("is not judged by its words in a library smaller than SEARCH_OFF_TOPIC_FROM_PASSAGES", async () => {
    const { nearestPassages } = await import("./meaning");
    const scope = { kind: "library", userId: USER } as const;
    const question = { q: OFF_TOPIC[0]!, platform: null, lang: null };
    expect(await nearestPassages(scope, question, 10, undefined, { offTopicFrom: 0 })).toEqual([]);
    // Three tracks say too few words to judge by: the nearest passages are answered (and labelled by closeness).
    expect((await nearestPassages(scope, question, 10, undefined, { offTopicFrom: 2_000 })).length).toBeGreaterThan(0);
  });

  it("still finds a question in other words than its moment", async () => {
    expect(PARAPHRASES).toHaveLength(3);
    const titleOf = new Map(TRACKS.map((t) => [t.key, t.title]));
    for (const { q, answers } of PARAPHRASES) {
      const { results, nothing_close } = await ask(q, "hybrid");
      expect(nothing_close, q).toBe(false);
      const found = results.some((m) =>
        answers.some(
          ([track, from, to]) => m.title === titleOf.get(track) && m.segment_index >= from && m.segment_index <= to,
        ),
      );
      expect(found, q).toBe(true);
      expect(
        results.some((m) => m.matched !== "words"),
        q,
      ).toBe(true);
    }
  });
});
