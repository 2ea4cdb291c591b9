// A static embedding model in Model2Vec's format (potion-base-8M and its kind), read from a folder the operator
// gives: `model.safetensors` (one matrix, a row per token, float32 or float16) and `tokenizer.json` (read by
// `@huggingface/tokenizers`, pure JS). A text's vector is the mean of its tokens' rows, without special tokens,
// made unit length: no graph to run, so a query costs a tokenisation and a few additions.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Tokenizer } from "@huggingface/tokenizers";

export const STATIC_MODEL_FILES = { matrix: "model.safetensors", tokenizer: "tokenizer.json" } as const;

/** Tokens that say nothing of the text (an unknown piece, padding). */
const UNREAD_TOKENS = new Set(["[UNK]", "[PAD]", "<unk>", "<pad>"]);

/** The tokens a passage is read up to (a passage is about 200 characters: this is never reached by one). */
const MAX_TOKENS = 512;

export interface StaticMatrix {
  rows: number;
  dims: number;
  values: Float32Array;
}

/** Half-precision bits as a number. */
function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/**
 * The one two-dimensional tensor of a safetensors file (an 8-byte little-endian header length, the header's JSON
 * naming each tensor's dtype, shape and byte range, then the data), as float32. `name`: which, when it has several
 * (Model2Vec names it `embeddings`).
 */
export function readSafetensorsMatrix(bytes: Buffer, name = "embeddings"): StaticMatrix {
  if (bytes.length < 8) throw new Error("not a safetensors file (too short)");
  const headerLength = Number(bytes.readBigUInt64LE(0));
  if (headerLength <= 0 || 8 + headerLength > bytes.length) throw new Error("not a safetensors file (header length)");
  const header = JSON.parse(bytes.toString("utf8", 8, 8 + headerLength)) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const tensors = Object.entries(header).filter(([key]) => key !== "__metadata__");
  const [, tensor] = tensors.find(([key]) => key === name) ?? (tensors.length === 1 ? tensors[0]! : [name, undefined]);
  if (!tensor) throw new Error(`the safetensors file has no tensor "${name}"`);
  if (tensor.shape.length !== 2) throw new Error(`"${name}" is not a matrix (shape ${JSON.stringify(tensor.shape)})`);
  const [rows, dims] = tensor.shape as [number, number];
  const [from, to] = tensor.data_offsets;
  const data = bytes.subarray(8 + headerLength + from, 8 + headerLength + to);
  const width = tensor.dtype === "F32" ? 4 : tensor.dtype === "F16" ? 2 : 0;
  if (width === 0) throw new Error(`"${name}" is ${tensor.dtype}; float32 and float16 are read`);
  if (data.length !== rows * dims * width)
    throw new Error(`"${name}" has ${data.length} bytes, not ${rows * dims * width}`);
  const values = new Float32Array(rows * dims);
  for (let i = 0; i < values.length; i++)
    values[i] = width === 4 ? data.readFloatLE(i * 4) : halfToFloat(data.readUInt16LE(i * 2));
  return { rows, dims, values };
}

/** A Model2Vec model: its tokenizer and matrix, read once. */
export class StaticModel {
  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly matrix: StaticMatrix,
    /** The matrix file's SHA-256: the vectors' identity, so another model's are never compared with these. */
    readonly checksum: string,
  ) {}

  static async load(dir: string): Promise<StaticModel> {
    const [{ Tokenizer }, matrixBytes, tokenizerJson] = await Promise.all([
      import("@huggingface/tokenizers"),
      readFile(path.join(dir, STATIC_MODEL_FILES.matrix)),
      readFile(path.join(dir, STATIC_MODEL_FILES.tokenizer), "utf8"),
    ]);
    const matrix = readSafetensorsMatrix(matrixBytes);
    const checksum = createHash("sha256").update(matrixBytes).digest("hex");
    return new StaticModel(new Tokenizer(JSON.parse(tokenizerJson) as object, {}), matrix, checksum);
  }

  get dims(): number {
    return this.matrix.dims;
  }

  /** The unit mean of the text's tokens' rows (no special tokens added, unknown ones left out), or null. */
  embed(text: string): Float32Array | null {
    const { ids, tokens } = this.tokenizer.encode(text, { add_special_tokens: false });
    const { dims, rows, values } = this.matrix;
    const acc = new Float32Array(dims);
    let n = 0;
    for (let i = 0; i < Math.min(ids.length, MAX_TOKENS); i++) {
      const id = ids[i]!;
      if (UNREAD_TOKENS.has(tokens[i]!) || id < 0 || id >= rows) continue;
      for (let d = 0; d < dims; d++) acc[d]! += values[id * dims + d]!;
      n++;
    }
    if (n === 0) return null;
    let norm = 0;
    for (const x of acc) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm === 0) return null;
    for (let d = 0; d < dims; d++) acc[d]! /= norm;
    return acc;
  }
}

const loaded = new Map<string, Promise<StaticModel>>();

/** The model in `dir`, read once per process. */
export function staticModelOf(dir: string): Promise<StaticModel> {
  let pending = loaded.get(dir);
  if (!pending) {
    pending = StaticModel.load(dir);
    pending.catch(() => loaded.delete(dir));
    loaded.set(dir, pending);
  }
  return pending;
}
