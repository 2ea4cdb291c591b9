// A model of all-MiniLM-L6-v2's shape and size with random weights (its real weights cannot be fetched where the
// benches run): BERT's encoder, 6 layers, 384 wide, 12 heads, 1,536 in the feed-forward, 30,522 token embeddings and
// 512 positions (22.6 M parameters, 90 MB as float32, as the real ONNX export), in ONNX's own format (opset 17), and a
// WordPiece tokenizer.json over `words` (the rest of its 30,522 rows are unused pieces). What it costs to run (time per
// passage, memory) is the real model's; what its vectors mean is nothing.
import { bertTokenizerJson, onnx, SPECIAL } from "../../test/fakes/model-host/tiny-sentence-model";

const HIDDEN = 384;
const HEADS = 12;
const FF = 1536;
const LAYERS = 6;
const VOCAB = 30_522;
const POSITIONS = 512;
const T = { FLOAT: 1, INT64: 7 } as const;

function random(n: number, scale: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = ((x >>> 0) / 2 ** 32 - 0.5) * 2 * scale;
  }
  return out;
}

export function miniLmShapedOnnx(): Buffer {
  const initializer: object[] = [];
  const node: object[] = [];
  let seed = 1;
  let n = 0;
  const weight = (name: string, dims: number[], scale = 0.05) => {
    const data = random(
      dims.reduce((a, b) => a * b, 1),
      scale,
      seed++,
    );
    initializer.push({ name, dims, dataType: T.FLOAT, rawData: new Uint8Array(data.buffer) });
    return name;
  };
  const constant = (name: string, values: number[], dims: number[], type: number = T.INT64) => {
    const data = type === T.INT64 ? new BigInt64Array(values.map(BigInt)) : new Float32Array(values);
    initializer.push({ name, dims, dataType: type, rawData: new Uint8Array(data.buffer) });
    return name;
  };
  const op = (opType: string, input: string[], attribute: object[] = []) => {
    const output = `${opType.toLowerCase()}_${n++}`;
    node.push({ opType, input, output: [output], name: output, attribute });
    return output;
  };
  const ones = (name: string) => constant(name, new Array<number>(HIDDEN).fill(1), [HIDDEN], T.FLOAT);
  const zeros = (name: string, size = HIDDEN) => constant(name, new Array<number>(size).fill(0), [size], T.FLOAT);
  const layerNorm = (x: string, name: string) =>
    op(
      "LayerNormalization",
      [x, ones(`${name}.gamma`), zeros(`${name}.beta`)],
      [{ name: "epsilon", f: 1e-12, type: 1 }],
    );
  const dense = (x: string, name: string, from: number, to: number) =>
    op("Add", [op("MatMul", [x, weight(`${name}.weight`, [from, to])]), zeros(`${name}.bias`, to)]);
  const transpose = (x: string, perm: number[]) => op("Transpose", [x], [{ name: "perm", ints: perm, type: 7 }]);

  constant("zero", [0], []);
  constant("one", [1], []);
  constant("heads_shape", [0, 0, HEADS, HIDDEN / HEADS], [4]);
  constant("hidden_shape", [0, 0, HIDDEN], [3]);
  constant("mask_axes", [1, 2], [2]);
  constant("one_f", [1], [], T.FLOAT);
  constant("minus_big", [-10_000], [], T.FLOAT);
  constant("scale", [1 / Math.sqrt(HIDDEN / HEADS)], [], T.FLOAT);
  constant("sqrt2", [Math.SQRT2], [], T.FLOAT);
  constant("half", [0.5], [], T.FLOAT);

  const length = op("Gather", [op("Shape", ["input_ids"]), "one"]);
  const positions = op("Range", ["zero", length, "one"]);
  let h = op("Add", [
    op("Add", [
      op("Gather", [weight("word_embeddings", [VOCAB, HIDDEN]), "input_ids"]),
      op("Gather", [weight("token_type_embeddings", [2, HIDDEN]), "token_type_ids"]),
    ]),
    op("Gather", [weight("position_embeddings", [POSITIONS, HIDDEN]), positions]),
  ]);
  h = layerNorm(h, "embeddings.norm");
  const maskFloat = op("Cast", ["attention_mask"], [{ name: "to", i: T.FLOAT, type: 2 }]);
  const maskBias = op("Unsqueeze", [op("Mul", [op("Sub", ["one_f", maskFloat]), "minus_big"]), "mask_axes"]);
  for (let layer = 0; layer < LAYERS; layer++) {
    const name = `layer${layer}`;
    const heads = (x: string) => op("Reshape", [x, "heads_shape"]);
    const q = transpose(heads(dense(h, `${name}.q`, HIDDEN, HIDDEN)), [0, 2, 1, 3]);
    const k = transpose(heads(dense(h, `${name}.k`, HIDDEN, HIDDEN)), [0, 2, 3, 1]);
    const v = transpose(heads(dense(h, `${name}.v`, HIDDEN, HIDDEN)), [0, 2, 1, 3]);
    const scores = op("Add", [op("Mul", [op("MatMul", [q, k]), "scale"]), maskBias]);
    const probs = op("Softmax", [scores], [{ name: "axis", i: -1, type: 2 }]);
    const context = op("Reshape", [transpose(op("MatMul", [probs, v]), [0, 2, 1, 3]), "hidden_shape"]);
    h = layerNorm(op("Add", [h, dense(context, `${name}.out`, HIDDEN, HIDDEN)]), `${name}.attention_norm`);
    const up = dense(h, `${name}.ff1`, HIDDEN, FF);
    const gelu = op("Mul", [op("Mul", [up, "half"]), op("Add", [op("Erf", [op("Div", [up, "sqrt2"])]), "one_f"])]);
    h = layerNorm(op("Add", [h, dense(gelu, `${name}.ff2`, FF, HIDDEN)]), `${name}.output_norm`);
  }
  node.push({ opType: "Identity", input: [h], output: ["last_hidden_state"], name: "output" });
  const value = (name: string, elemType: number, dims: (string | number)[]) => ({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
  const ModelProto = onnx.lookupType("ModelProto");
  return Buffer.from(
    ModelProto.encode(
      ModelProto.fromObject({
        irVersion: 8,
        producerName: "verbatim-bench",
        opsetImport: [{ domain: "", version: 17 }],
        graph: {
          name: "minilm-shaped",
          node,
          initializer,
          input: ["input_ids", "attention_mask", "token_type_ids"].map((name) =>
            value(name, T.INT64, ["batch", "sequence"]),
          ),
          output: [value("last_hidden_state", T.FLOAT, ["batch", "sequence", HIDDEN])],
        },
      }),
    ).finish(),
  );
}

/** A BERT WordPiece tokenizer.json (all-MiniLM-L6-v2's layout) whose whole words are `words`. */
export function miniLmShapedTokenizer(words: Iterable<string>): Buffer {
  return bertTokenizerJson([...new Set([...SPECIAL, ...words])].slice(0, VOCAB));
}
