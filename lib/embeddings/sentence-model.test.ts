// The local sentence model's pooling, run by the real onnxruntime-node on a tiny model in ONNX's own format
// (test/fakes/model-host/tiny-sentence-model.ts), whose hidden state of a token is its row of the embedding table (a
// padded position's too, halved): a text's vector is the mean of its tokens' rows ([CLS] and [SEP] among them, its
// padding not), made unit length; a longer text is read up to maxTokens, its [SEP] kept.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  embeddingTable,
  TINY_DIMS,
  tinySentenceOnnx,
  tinyTokenizerJson,
  tinyVocabulary,
} from "@/test/fakes/model-host/tiny-sentence-model";
import { SentenceModel } from "./sentence-model";

let dir: string;
let model: SentenceModel;
const vocabulary = tinyVocabulary();
const table = embeddingTable(vocabulary);

function expected(tokens: string[]): number[] {
  const sum = new Array<number>(TINY_DIMS).fill(0);
  for (const token of tokens) {
    const id = vocabulary.indexOf(token);
    for (let d = 0; d < TINY_DIMS; d++) sum[d]! += table[id * TINY_DIMS + d]!;
  }
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sentence-model-"));
  await writeFile(path.join(dir, "model.onnx"), tinySentenceOnnx());
  await writeFile(path.join(dir, "tokenizer.json"), tinyTokenizerJson());
  model = await SentenceModel.load(
    { modelFile: path.join(dir, "model.onnx"), tokenizerFile: path.join(dir, "tokenizer.json"), maxTokens: 6 },
    1,
  );
});

afterAll(async () => {
  await model?.release();
  await rm(dir, { recursive: true, force: true });
});

describe("a local sentence model", () => {
  it("pools the last hidden state over the text's tokens (mean, then unit length), padding left out", async () => {
    // Two texts of different lengths in one run: the shorter is padded, and its padding must not count.
    const { dims, vectors, known } = await model.embed(["Rocket engine", "the carrier escaped"]);
    expect(dims).toBe(TINY_DIMS);
    expect([...known]).toEqual([1, 1]);
    const [rocket, carrier] = [vectors.subarray(0, dims), vectors.subarray(dims)];
    expect([...rocket].map((x) => +x.toFixed(5))).toEqual(
      expected(["[CLS]", "rocket", "engine", "[SEP]"]).map((x) => +x.toFixed(5)),
    );
    expect([...carrier].map((x) => +x.toFixed(5))).toEqual(
      expected(["[CLS]", "the", "carrier", "escaped", "[SEP]"]).map((x) => +x.toFixed(5)),
    );
  });

  it("reads a long text up to maxTokens, its closing [SEP] kept; an empty text has no vector", async () => {
    expect(model.tokens("rocket engine launch thrust fuel booster liftoff")).toEqual(
      ["[CLS]", "rocket", "engine", "launch", "thrust", "[SEP]"].map((t) => vocabulary.indexOf(t)),
    );
    const { vectors, known } = await model.embed(["rocket engine launch thrust fuel booster liftoff", " "]);
    expect([...known]).toEqual([1, 0]);
    expect([...vectors.subarray(0, TINY_DIMS)].map((x) => +x.toFixed(5))).toEqual(
      expected(["[CLS]", "rocket", "engine", "launch", "thrust", "[SEP]"]).map((x) => +x.toFixed(5)),
    );
  });
});
