// Every passage's vector stored beside it: written a batch at a time for the passages that have none (a
// transcript's and a correction's), resumed from what is missing, gone with its passage.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { indexCorrections, storeTranscript } from "@/test/search";
import { cosine, embedText } from "@/lib/embeddings/embed";
import { encodeWordVectors, WordVectors } from "@/lib/embeddings/word-vectors";
import type { Embedder } from "@/lib/embeddings/embedder";
import { fileEmbedder } from "@/lib/embeddings/kinds/default";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let lib: typeof import("./embed-passages");
let dir: string;
let embedder: Embedder;
let vectors: WordVectors;

// Made-up vectors of 4 dimensions: animals and machines.
const VOCABULARY: [string, number[]][] = [
  ["the", [1, 1, 1, 1]],
  ["cat", [9, 1, 0, 0]],
  ["kitten", [8, 2, 0, 0]],
  ["dog", [7, 3, 1, 0]],
  ["engine", [0, 0, 9, 1]],
  ["rocket", [0, 1, 8, 2]],
];
const segments = (texts: string[]) =>
  texts.map((text, i) => ({ start: i * 10, end: i * 10 + 9, text: `${text} ${"lorem ipsum ".repeat(16)}` }));

beforeAll(async () => {
  ctx = await useTestDatabase();
  lib = await import("./embed-passages");
  dir = await mkdtemp(path.join(tmpdir(), "embed-passages-"));
  const bytes = encodeWordVectors(
    VOCABULARY.map(([word, vector]) => ({ word, vector })),
    4,
  );
  vectors = new WordVectors(bytes);
  const file = path.join(dir, "tiny.bin");
  await writeFile(file, bytes);
  embedder = fileEmbedder("tiny/6", file);
  await ctx.db.user.create({ data: { id: "reader", email: "reader@example.test" } });
});

afterAll(async () => {
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

const stored = () =>
  ctx.db.$queryRawUnsafe<{ pid: bigint; transcriptId: string; model: string; vector: Uint8Array; scale: number }[]>(
    `SELECT e."pid", p."transcriptId", e."model", e."vector", e."scale" FROM "PassageEmbedding" e
     JOIN "SearchPassage" p ON p."pid" = e."pid" ORDER BY e."pid"`,
  );

describe("passages' vectors", () => {
  it("are written for every passage that has none, newest first, a batch at a time, each near its text's own", async () => {
    const { transcript } = await storeTranscript(ctx.db, {
      segments: segments(["the cat", "a rocket engine", "zzz qqq"]),
      lang: "en",
      title: "Animals and machines",
    });
    const first = await lib.embedMissingPassages(embedder, 2);
    expect(first.embedded).toBe(2);
    const rest = await lib.embedMissingPassages(embedder, 2, { below: first.lowest! });
    expect(rest.embedded).toBe(1);
    expect((await lib.embedMissingPassages(embedder, 2)).embedded).toBe(0);
    const rows = await stored();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.model === "tiny/6" && r.transcriptId === transcript.id)).toBe(true);
    const cat = lib.dequantise(rows[0]!.vector, rows[0]!.scale)!;
    expect(cosine(cat, embedText(vectors, "the cat")!)).toBeGreaterThan(0.99);
    expect(
      cosine(lib.dequantise(rows[1]!.vector, rows[1]!.scale)!, embedText(vectors, "rocket engine")!),
    ).toBeGreaterThan(0.99);
    // A passage none of whose words has a vector: an empty one, not read again.
    expect(lib.dequantise(rows[2]!.vector, rows[2]!.scale)).toBeNull();
    expect(await lib.embeddingProgress(embedder)).toEqual({ passages: 3, embedded: 3 });
  });

  it("go with their passages, and a replaced or corrected transcript's new passages get theirs", async () => {
    const { transcript } = await storeTranscript(ctx.db, {
      segments: segments(["a kitten"]),
      lang: "en",
      title: "Kittens",
      userIds: ["reader"],
    });
    await lib.embedMissingPassages(embedder);
    const before = (await stored()).filter((r) => r.transcriptId === transcript.id).map((r) => r.pid);
    expect(before).toHaveLength(1);
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { segments: segments(["a dog"]) } });
    expect((await stored()).some((r) => before.includes(r.pid))).toBe(false);
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('rev', 'reader', $1, $2::jsonb, 10)`,
      transcript.id,
      JSON.stringify(segments(["the engine"])),
    );
    await indexCorrections(ctx.db);
    expect((await lib.embedMissingPassages(embedder)).embedded).toBe(2);
    const rows = (await stored()).filter((r) => r.transcriptId === transcript.id);
    expect(rows.map((r) => cosine(lib.dequantise(r.vector, r.scale)!, embedText(vectors, "dog")!) > 0.99)).toContain(
      true,
    );
    expect(
      rows.map((r) => cosine(lib.dequantise(r.vector, r.scale)!, embedText(vectors, "the engine")!) > 0.99),
    ).toContain(true);
    await ctx.db.transcript.delete({ where: { id: transcript.id } });
    expect((await stored()).filter((r) => r.transcriptId === transcript.id)).toHaveLength(0);
    const [{ orphans }] = await ctx.db.$queryRawUnsafe<{ orphans: number }[]>(
      `SELECT count(*)::int AS orphans FROM "PassageEmbedding" e WHERE NOT EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e."pid")`,
    );
    expect(orphans).toBe(0);
  });
});
