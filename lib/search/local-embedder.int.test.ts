// SEARCH_EMBEDDER=local: a sentence model's files fetched on first need from a host with Hugging Face's layout
// (test/fakes/model-host/hub.ts) through the outbound guard, checked against their pinned SHA-256, run by the real
// onnxruntime-node (a tiny model this test writes in ONNX's own format), and a search by meaning that uses it; and a
// change of embedder re-embeds every passage rather than mixing two models' vectors.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { startFakeHub, type FakeHub } from "@/test/fakes/model-host/hub";
import { TINY_DIMS, tinySentenceOnnx, tinyTokenizerJson } from "@/test/fakes/model-host/tiny-sentence-model";
import { storeTranscript } from "@/test/search";
import { cosine } from "@/lib/embeddings/embed";
import { EmbedderUnavailable } from "@/lib/embeddings/default-model";
import type { SentenceModelInfo } from "@/lib/embeddings/sentence-catalog";
import { encodeWordVectors } from "@/lib/embeddings/word-vectors";
import { createOutbound } from "@/lib/http/outbound";
import type { LocalModelPlace } from "@/lib/embeddings/sentence-files";
import { fileEmbedder } from "@/lib/embeddings/kinds/default";

const REPO = "verbatim-tests/tiny-minilm";
const REVISION = "0123456789abcdef0123456789abcdef01234567";
const model = tinySentenceOnnx();
const tokenizer = tinyTokenizerJson();
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const INFO: SentenceModelInfo = {
  repo: REPO,
  revision: REVISION,
  dims: TINY_DIMS,
  maxTokens: 32,
  model: { path: "onnx/model.onnx", file: "model.onnx", bytes: model.length, sha256: sha256(model) },
  tokenizer: { path: "tokenizer.json", file: "tokenizer.json", bytes: tokenizer.length, sha256: sha256(tokenizer) },
};
const ask = (q: string) => ({ q, platform: null, lang: null });
const outbound = createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" });

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let files: typeof import("@/lib/embeddings/sentence-files");
let kinds: typeof import("@/lib/embeddings/kinds/local");
let passages: typeof import("./embed-passages");
let meaning: typeof import("./meaning");
let hub: FakeHub;
let dir: string;
const place = (name: string, baseUrl = hub.baseUrl): LocalModelPlace => ({
  name,
  info: INFO,
  dir: path.join(dir, "models", name),
  baseUrl,
});

beforeAll(async () => {
  ctx = await useTestDatabase();
  files = await import("@/lib/embeddings/sentence-files");
  kinds = await import("@/lib/embeddings/kinds/local");
  passages = await import("./embed-passages");
  meaning = await import("./meaning");
  dir = await mkdtemp(path.join(tmpdir(), "local-embedder-"));
  hub = await startFakeHub(REPO, REVISION, { "onnx/model.onnx": model, "tokenizer.json": tokenizer });
  await ctx.db.user.create({ data: { id: "reader", email: "reader@example.test" } });
});

afterAll(async () => {
  await hub?.close();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

describe("the local sentence model's files", () => {
  it("are downloaded on first need from the host's resolve/ URLs at the pinned revision, once", async () => {
    const tiny = place("tiny");
    expect(await files.localModelPresent(tiny)).toBe(false);
    const got = await files.ensureLocalModel(tiny, outbound);
    expect(await readFile(got.modelFile)).toEqual(model);
    expect(await readFile(got.tokenizerFile)).toEqual(tokenizer);
    expect(await files.localModelPresent(tiny)).toBe(true);
    expect(hub.requests).toEqual([
      `/${REPO}/resolve/${REVISION}/tokenizer.json`,
      `/${REPO}/resolve/${REVISION}/onnx/model.onnx`,
    ]);
    await files.ensureLocalModel(tiny, outbound);
    expect(hub.requests).toHaveLength(2);
    expect((await readdir(tiny.dir)).sort()).toEqual(["model.onnx", "tokenizer.json"]);
  });

  it("refuses a file that is not the pinned one (same size, other bytes): deleted, nothing left in place", async () => {
    const corrupt = Buffer.from(model);
    corrupt[corrupt.length - 1] ^= 0xff;
    hub.serve("onnx/model.onnx", corrupt);
    try {
      const mirror = place("corrupt");
      const error = await files.ensureLocalModel(mirror, outbound).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbedderUnavailable);
      expect((error as Error).message).toMatch(
        new RegExp(`model\\.onnx downloaded from .* is not the expected file .*${INFO.model.sha256}.*it was deleted`),
      );
      expect(await files.localModelPresent(mirror)).toBe(false);
      expect(await readdir(mirror.dir)).toEqual(["tokenizer.json"]);
    } finally {
      hub.serve("onnx/model.onnx", model);
    }
  });

  it("says what is missing when the host has no such file, and gives up at its deadline on a stalled host", async () => {
    const missing = { ...place("missing"), info: { ...INFO, revision: "f".repeat(40) } };
    await expect(files.ensureLocalModel(missing, outbound)).rejects.toThrow(
      /tokenizer\.json could not be downloaded from .*: the host answered 404\. Put model\.onnx and tokenizer\.json .* SEARCH_LOCAL_MODEL_BASE_URL/,
    );
    const stalled = await startFakeHub(REPO, REVISION, {});
    stalled.stall();
    try {
      const error = await files
        .ensureLocalModel(place("stalled", stalled.baseUrl), outbound, { deadlineMs: 300 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbedderUnavailable);
      expect((error as Error).message).toMatch(/could not be downloaded/);
    } finally {
      await stalled.close();
    }
  });
});

describe("embedding with the local sentence model", () => {
  it("runs the graph in a worker thread: unit vectors, mean-pooled, near for texts of one topic; a query the same", async () => {
    const embedder = kinds.localEmbedder(place("tiny"), () => outbound);
    expect(embedder.model).toBe(`local/tiny@${INFO.model.sha256.slice(0, 12)}`);
    expect(await embedder.ready()).toBe(true);
    const [hiryu, flattop, rocket, empty] = await embedder.embed([
      "Only the Hiryu escaped.",
      "the lone flattop that got away",
      "Rocket engine ignition",
      "  ",
    ]);
    expect(empty).toBeNull();
    for (const v of [hiryu!, flattop!, rocket!]) {
      expect(v).toHaveLength(TINY_DIMS);
      expect(cosine(v, v)).toBeCloseTo(1, 5);
    }
    expect(cosine(hiryu!, flattop!)).toBeGreaterThan(0.8);
    expect(cosine(hiryu!, rocket!)).toBeLessThan(0.5);
    const query = await embedder.embedQuery("the lone flattop that got away");
    expect(cosine(query!, flattop!)).toBeCloseTo(1, 5);
  });

  it("finds a moment by meaning that none of the query's words says, and a change of embedder re-embeds, never mixes", async () => {
    await storeTranscript(ctx.db, {
      segments: [{ start: 0, end: 9, text: "Only the Hiryu escaped." }],
      lang: "en",
      title: "Midway",
      userIds: ["reader"],
    });
    await storeTranscript(ctx.db, {
      segments: [{ start: 0, end: 9, text: "Rocket engine ignition at dawn." }],
      lang: "en",
      title: "Launch",
      userIds: ["reader"],
    });
    await storeTranscript(ctx.db, {
      segments: [{ start: 0, end: 9, text: "Bentonite clay absorbs; that is cat litter." }],
      lang: "en",
      title: "Clay",
      userIds: ["reader"],
    });
    const scope = { kind: "library", userId: "reader" } as const;
    // First the word vectors (a made-up vocabulary of two words): every passage gets their vectors.
    const wordsFile = path.join(dir, "words.bin");
    await writeFile(
      wordsFile,
      encodeWordVectors(
        [
          { word: "the", vector: [1, 1] },
          { word: "clay", vector: [0, 1] },
        ],
        2,
      ),
    );
    const words = fileEmbedder("words/2", wordsFile);
    while ((await passages.embedMissingPassages(words)).embedded > 0);
    expect(await passages.embeddingProgress(words)).toEqual({ passages: 3, embedded: 3 });

    const local = kinds.localEmbedder(place("tiny"), () => outbound);
    expect(await passages.embeddingProgress(local)).toEqual({ passages: 3, embedded: 0 });
    // Before the local model's vectors exist, a search with it finds nothing by meaning (the others are not its).
    expect(await meaning.nearestPassages(scope, ask("the lone flattop that got away"), 10, local)).toEqual([]);
    while ((await passages.embedMissingPassages(local, 2)).embedded > 0);
    expect(await passages.embeddingProgress(local)).toEqual({ passages: 3, embedded: 3 });
    expect(await passages.embeddingProgress(words)).toEqual({ passages: 3, embedded: 0 });
    const rows = await ctx.db.$queryRawUnsafe<{ model: string; bytes: number }[]>(
      `SELECT "model", length("vector") AS bytes FROM "PassageEmbedding"`,
    );
    expect(rows.every((r) => r.model === local.model && r.bytes === TINY_DIMS)).toBe(true);

    const found = await meaning.nearestPassages(scope, ask("the lone flattop that got away"), 10, local);
    const midway = await ctx.db.transcript.findFirstOrThrow({ where: { title: "Midway" } });
    expect(found[0]!.transcriptId).toBe(midway.id);
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
    const litter = await meaning.nearestPassages(scope, ask("what cat box filler has to do with this"), 1, local);
    const clay = await ctx.db.transcript.findFirstOrThrow({ where: { title: "Clay" } });
    expect(litter.map((n) => n.transcriptId)).toEqual([clay.id]);
  });
});
