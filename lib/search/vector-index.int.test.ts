// Meaning through pgvector: the embedded PGlite loads it and its migrations create the extension, the passages'
// halfvec column and the default embedder's HNSW index (cosine); a vector query reads the index; another
// embedder's dimensions get an index of their own before their first vectors. The index's search sees exactly what
// keyword search may see (a private transcript, an unpublished page, another reader's correction never surface)
// and finds what the exhaustive search finds. On PostgreSQL without pgvector (Debian's 15), the same migrations
// leave the bounded search, said, and nothing fails.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultModelFile } from "@/lib/embeddings/default-model";
import type { Embedder } from "@/lib/embeddings/embedder";
import { encodeWordVectors } from "@/lib/embeddings/word-vectors";
import { PrismaClient } from "@/lib/generated/prisma/client";
import type { SearchScope } from "@/lib/search/search-statement";
import { useTestDatabase } from "@/test/app-db";
import { indexCorrections, storeTranscript } from "@/test/search";
import { migratedPglite } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: unknown;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let dir: string;
let meaning: typeof import("./meaning");
let vectors: typeof import("./vector-index");
let embedder: Embedder;
const ids: Record<string, string> = {};

const VOCABULARY: [string, number[]][] = [
  ["the", [1, 1, 1, 1]],
  ["a", [1, 1, 1, 0.9]],
  ["cat", [9, 1, 0, 0]],
  ["kitten", [8, 2, 0, 0]],
  ["engine", [0, 0, 9, 1]],
  ["rocket", [0, 1, 8, 2]],
  ["violin", [0, 9, 0, 1]],
  ["music", [5, 5, 0, 0]],
];
const segments = (text: string) => [{ start: 0, end: 9, text }];
const onPglite = () =>
  ((globalThis as { verbatimDb?: unknown }).verbatimDb = Promise.resolve({
    client: pgliteDb,
    kind: "pglite",
    pglite,
  }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vector-index-"));
  process.env.DATA_DIR = dir;
  process.env.SEARCH_EMBEDDER = "default";
  // Made-up word vectors, and no distilled ones beside to outweigh them.
  process.env.SEARCH_DISTILLED_WORDS = "0";
  ctx = await useTestDatabase();
  postgres = (globalThis as { verbatimDb?: unknown }).verbatimDb;
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  embedder = configuredEmbedder()!;
  const file = defaultModelFile(dir);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    encodeWordVectors(
      VOCABULARY.map(([word, vector]) => ({ word, vector })),
      4,
    ),
  );
  meaning = await import("./meaning");
  vectors = await import("./vector-index");
  pglite = await migratedPglite();
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  onPglite();
  await pgliteDb.user.createMany({ data: ["reader", "other"].map((id) => ({ id, email: `${id}@example.test` })) });
  const store = async (key: string, text: string, userIds: string[], published: boolean | null) => {
    const { transcript } = await storeTranscript(pgliteDb, {
      segments: segments(text),
      lang: "en",
      title: key,
      userIds,
    });
    ids[key] = transcript.id;
    if (published !== null)
      await pgliteDb.publication.create({
        data: {
          slug: key,
          userId: userIds[0]!,
          transcriptId: transcript.id,
          publishedAt: published ? new Date() : null,
        },
      });
  };
  await store("kittens", "the kitten slept by the fire", ["reader"], true);
  await store("rockets", "a rocket engine roared at dawn", ["reader"], true);
  await store("private", "the cat of someone else", ["other"], null);
  await store("unpublished", "a cat on a page taken down", ["other"], false);
  await store("shared", "a violin played softly", ["reader", "other"], null);
  await pgliteDb.$executeRawUnsafe(
    `INSERT INTO "Follow" ("id", "userId", "url", "kind", "showSlug", "updatedAt")
     VALUES ('show', 'reader', 'https://example.test/feed.rss', 'podcast', 'cat-show-1a2b3c4d', now())`,
  );
  await pgliteDb.$executeRawUnsafe(
    `INSERT INTO "FollowItem" ("id", "followId", "guid", "title", "url", "status", "transcriptId")
     VALUES ('episode', 'show', 'g1', 'Kittens', 'https://example.test/1', 'done', $1)`,
    ids.kittens,
  );
  await pgliteDb.$executeRawUnsafe(
    `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('corr', 'other', $1, $2::jsonb, 10)`,
    ids.shared,
    JSON.stringify(segments("a cat played softly")),
  );
  await indexCorrections(pgliteDb);
  while ((await embedMissingPassages(embedder)).embedded > 0);
});

afterAll(async () => {
  (globalThis as { verbatimDb?: unknown }).verbatimDb = postgres;
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

const SCOPES: [string, SearchScope][] = [
  ["the reader's library", { kind: "library", userId: "reader" }],
  ["the other's library", { kind: "library", userId: "other" }],
  ["published transcripts", { kind: "public", show: null }],
  ["the show", { kind: "public", show: "cat-show-1a2b3c4d" }],
];
/** What each scope may see: keyword search's own visibility, written out. */
const VISIBLE: Record<string, string[]> = {
  "the reader's library": ["kittens", "rockets", "shared"],
  "the other's library": ["private", "unpublished", "shared"],
  "published transcripts": ["kittens", "rockets"],
  "the show": ["kittens"],
};
/** No platform or language asked. */
const ANY = { platform: null, lang: null };
const keyOf = (transcriptId: string) => Object.entries(ids).find(([, id]) => id === transcriptId)?.[0];

describe("pgvector on the embedded PGlite", () => {
  it("is created by the migrations: the extension, the passages' halfvec column and the default's HNSW index", async () => {
    const [ext] = await pglite
      .query<{ extversion: string }>(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)
      .then((r) => r.rows);
    expect(ext?.extversion).toBe("0.8.7");
    expect((await pglite.query(`SELECT verbatim_vector_setup() AS ok`)).rows).toEqual([{ ok: true }]);
    const indexes = await pglite.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'PassageEmbedding' AND indexdef LIKE '%hnsw%' ORDER BY 1`,
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual(["PassageEmbedding_hnsw_100", "PassageEmbedding_hnsw_4"]);
    expect(indexes.rows[0]!.indexdef).toMatch(/halfvec_cosine_ops.*vector_dims\(embedding\) = 100/);
    expect(await vectors.vectorSearchPath(pgliteDb)).toBe("hnsw");
    // Every passage with a vector has it in the column too.
    const [counts] = (
      await pglite.query<{ stored: number; indexed: number }>(
        `SELECT count(*)::int AS stored, count("embedding")::int AS indexed FROM "PassageEmbedding" WHERE length("vector") > 0`,
      )
    ).rows;
    expect(counts!.stored).toBeGreaterThan(0);
    expect(counts!.indexed).toBe(counts!.stored);
  });

  it("runs a vector query through the HNSW index", async () => {
    const query = await embedder.embedQuery("kitten");
    const statement = meaning.indexStatement({ kind: "public", show: null }, ANY, embedder.model, query!, false, 10);
    await pglite.exec(`BEGIN; SET LOCAL enable_seqscan = off`);
    try {
      const plan = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN ${statement.text}`, statement.values);
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Index Scan using "PassageEmbedding_hnsw_4"/);
      const rows = await pglite.query<{ transcriptId: string; score: number }>(statement.text, statement.values);
      expect(keyOf(rows.rows[0]!.transcriptId)).toBe("kittens");
      expect(rows.rows[0]!.score).toBeGreaterThan(0.9);
    } finally {
      await pglite.exec(`ROLLBACK`);
    }
  });

  it("sees exactly what keyword search may see, through the index as through the whole scope", async () => {
    onPglite();
    for (const q of ["the cat", "kitten", "music", "a rocket engine", "the violin"])
      for (const [name, scope] of SCOPES) {
        const viaIndex = await meaning.nearestPassages(scope, { q, ...ANY }, 20, embedder, { indexFrom: 0 });
        const exhaustive = await meaning.nearestPassages(scope, { q, ...ANY }, 20, embedder);
        for (const found of viaIndex) expect(VISIBLE[name], `${q} in ${name}`).toContain(keyOf(found.transcriptId));
        expect(
          viaIndex.map((m) => m.pid),
          `${q} in ${name}`,
        ).toEqual(exhaustive.map((m) => m.pid));
      }
    // The corrected passage ("a cat …") is its author's alone; the reader finds the violin they heard.
    const cat = async (userId: string) =>
      (
        await meaning.nearestPassages({ kind: "library", userId }, { q: "cat", ...ANY }, 20, embedder, { indexFrom: 0 })
      ).map((m) => keyOf(m.transcriptId));
    expect(await cat("other")).toEqual(expect.arrayContaining(["private", "unpublished", "shared"]));
    expect(await cat("reader")).not.toContain("shared");
    expect(await cat("reader")).not.toContain("private");
    expect(
      (
        await meaning.nearestPassages({ kind: "public", show: null }, { q: "cat", ...ANY }, 20, embedder, {
          indexFrom: 0,
        })
      )
        .map((m) => keyOf(m.transcriptId))
        .filter((k) => k !== "kittens" && k !== "rockets"),
    ).toEqual([]);
  });
});

describe("PostgreSQL", () => {
  it("uses pgvector where the server has it, and says the bounded search where it does not, without failing", async () => {
    (globalThis as { verbatimDb?: unknown }).verbatimDb = postgres;
    const [{ available }] = await ctx.db.$queryRawUnsafe<{ available: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
    );
    const [{ ok }] = await ctx.db.$queryRawUnsafe<{ ok: boolean }[]>(`SELECT verbatim_vector_setup() AS ok`);
    expect(ok).toBe(available);
    expect(await vectors.vectorSearchPath(ctx.db)).toBe(available ? "hnsw" : "bounded");
  });
});
