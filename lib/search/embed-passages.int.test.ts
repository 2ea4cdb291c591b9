// Every passage's vector stored beside it: written a batch at a time for the passages that have none (a
// transcript's and a correction's), resumed from what is missing, gone with its passage.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
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

  it("read a correction's segments once for a batch of its passages, not once a passage, spelled as search spells them", async () => {
    const { transcript } = await storeTranscript(ctx.db, {
      segments: segments(["a cat"]),
      lang: "en",
      title: "A long correction",
      userIds: ["reader"],
    });
    // 4,000 distinct lines: a stored value of hundreds of kilobytes, kept out of line (TOAST) in chunks.
    const lines = Array.from({ length: 4000 }, (_, i) => ({
      start: i,
      end: i + 0.5,
      text: `line ${i.toString(36)} ${(i * 7919).toString(36)} ${(i * 104729).toString(36)}`,
    }));
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('long', 'reader', $1, $2::jsonb, 10)`,
      transcript.id,
      JSON.stringify(lines),
    );
    await indexCorrections(ctx.db);
    const client = new pg.Client({ connectionString: ctx.url });
    await client.connect();
    try {
      const pids = (
        await client.query<{ pid: string }>(
          `SELECT "pid"::text AS pid FROM "RevisionPassage" WHERE "revisionId" = 'long' ORDER BY "seq" LIMIT 200`,
        )
      ).rows.map((r) => r.pid);
      expect(pids).toHaveLength(200);
      // The correction's out-of-line blocks this connection read for `pids`' texts (its statistics flushed first).
      const blocksRead = async (batch: string[]) => {
        const counted = async () => {
          await client.query("SELECT pg_stat_clear_snapshot()");
          const { rows } = await client.query<{ blocks: string }>(
            `SELECT (coalesce(toast_blks_hit, 0) + coalesce(toast_blks_read, 0))::text AS blocks
             FROM pg_statio_user_tables WHERE relname = 'TranscriptRevision'`,
          );
          return Number(rows[0]!.blocks);
        };
        const before = await counted();
        await client.query("BEGIN");
        await client.query("SELECT pg_stat_force_next_flush()");
        const { rows } = await client.query<{ pid: string; text: string }>(
          `SELECT "pid"::text AS pid, "text" FROM verbatim_passages_text($1::bigint[])`,
          [batch],
        );
        await client.query("COMMIT");
        return { blocks: (await counted()) - before, rows };
      };
      const one = await blocksRead(pids.slice(0, 1));
      const batch = await blocksRead(pids);
      expect(one.blocks).toBeGreaterThan(0);
      expect(batch.blocks).toBeLessThan(3 * one.blocks);
      // The same texts as the answers' (verbatim_passage_segments, one passage at a time).
      const { rows: spelled } = await client.query<{ pid: string; text: string }>(
        `SELECT p."pid"::text AS pid, seg.text FROM "SearchPassage" p
         JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
         CROSS JOIN LATERAL verbatim_passage_segments(rev."segments", p."segFrom", p."segTo") AS seg
         WHERE p."pid" = ANY ($1::bigint[])`,
        [pids],
      );
      const byPid = (rows: { pid: string; text: string }[]) => new Map(rows.map((r) => [r.pid, r.text]));
      expect(byPid(batch.rows)).toEqual(byPid(spelled));
      expect(spelled[0]!.text).toMatch(/^line /);
    } finally {
      await client.end();
    }
  });
});
