import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDistilledFile, distilledModelFile } from "./default-model";
import { DISTILLED_DIMS } from "./distil-words";
import { cosine, DISTILLED_SHARE, embedText } from "./embed";
import { loadUseLite, useLiteFolder } from "./use-lite";
import { encodeWordVectors, WordVectors } from "./word-vectors";

// A vocabulary most frequent first, of made-up 4-dimensional word vectors that tell nothing apart: what the
// distilled vectors know of these words comes from the encoder alone.
const WORDS = ["the", "car", "automobile", "poem", "banana", "kitten", "cat"];
let dir: string;
let vocabularyFile: string;

const vectorOf = (vectors: WordVectors, word: string) => {
  const v = new Float32Array(vectors.dims);
  vectors.addTo(v, vectors.rank(word), 1);
  return v;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "distil-"));
  vocabularyFile = path.join(dir, "words.bin");
  await writeFile(
    vocabularyFile,
    encodeWordVectors(
      WORDS.map((word, i) => ({ word, vector: [1, 0.1 * i, 0.5, 0.2] })),
      4,
    ),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// A guard against a hang, not a speed bound: each test loads the encoder (TensorFlow.js and the model, about 10 s of
// a core) in a thread, and beside the other suites under `nice` that once took over 30 s.
describe("word vectors distilled from Universal Sentence Encoder lite", { timeout: 180_000 }, () => {
  it("distils the most frequent words once, in a worker thread, each as the encoder reads it alone", async () => {
    const target = distilledModelFile(vocabularyFile, 5);
    await ensureDistilledFile(target, vocabularyFile, 5);
    const made = (await stat(target)).mtimeMs;
    await ensureDistilledFile(target, vocabularyFile, 5);
    expect((await stat(target)).mtimeMs).toBe(made);

    const distilled = new WordVectors(await readFile(target));
    expect(distilled.dims).toBe(DISTILLED_DIMS);
    expect(distilled.mostFrequent(10)).toEqual(WORDS.slice(0, 5));
    // Each word's vector is the encoder's for the word alone, in the words' principal directions: with fewer words
    // than directions, nothing of them is cut, and two words are as alike as the encoder finds them.
    const encoder = await loadUseLite(useLiteFolder()!);
    try {
      const [car, automobile, poem] = await encoder.embed(["car", "automobile", "poem"]);
      const alike = (a: Float32Array, b: Float32Array) => cosine(a, b) / Math.sqrt(cosine(a, a) * cosine(b, b));
      const distilledCar = vectorOf(distilled, "car");
      expect(alike(distilledCar, vectorOf(distilled, "automobile"))).toBeCloseTo(alike(car!, automobile!), 2);
      expect(alike(distilledCar, vectorOf(distilled, "poem"))).toBeCloseTo(alike(car!, poem!), 2);
    } finally {
      encoder.release();
    }
    // What the encoder learnt: a car is an automobile more than a poem or a banana.
    const car = vectorOf(distilled, "car");
    expect(cosine(car, vectorOf(distilled, "automobile"))).toBeGreaterThan(
      cosine(car, vectorOf(distilled, "poem")) + 0.1,
    );
    expect(cosine(car, vectorOf(distilled, "automobile"))).toBeGreaterThan(
      cosine(car, vectorOf(distilled, "banana")) + 0.1,
    );
  });

  it("distils only the words asked for, with the vectors the whole vocabulary's distillation gives them", async () => {
    const target = path.join(dir, "only.bin");
    await ensureDistilledFile(target, vocabularyFile, 100, ["kitten", "car", "nowhere"]);
    const only = new WordVectors(await readFile(target));
    expect(only.mostFrequent(10)).toEqual(["car", "kitten"]);
    const all = new WordVectors(await readFile(distilledModelFile(vocabularyFile, 5)));
    // The same up to int8 rounding (a batch's other words change the encoder's arithmetic in the last bits).
    expect(cosine(vectorOf(only, "car"), vectorOf(all, "car"))).toBeCloseTo(1, 2);
  });

  it("makes a text's vector of both averages: its cosine is the two cosines in their shares", async () => {
    const words = new WordVectors(await readFile(vocabularyFile));
    const distilled = new WordVectors(await readFile(distilledModelFile(vocabularyFile, 5)));
    const a = embedText(words, "car", distilled)!;
    const b = embedText(words, "poem", distilled)!;
    expect(a).toHaveLength(4 + DISTILLED_DIMS);
    const expected =
      (1 - DISTILLED_SHARE) * cosine(embedText(words, "car")!, embedText(words, "poem")!) +
      DISTILLED_SHARE *
        cosine(
          vectorOf(distilled, "car").map((x, _, v) => x / Math.hypot(...v)),
          vectorOf(distilled, "poem").map((x, _, v) => x / Math.hypot(...v)),
        );
    expect(cosine(a, b)).toBeCloseTo(expected, 4);
    // A text none of whose words was distilled keeps its word vectors' half alone.
    expect(cosine(embedText(words, "kitten", distilled)!.subarray(0, 4), embedText(words, "kitten")!)).toBeCloseTo(
      1,
      5,
    );
  });
});
