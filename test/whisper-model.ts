/**
 * Writes a tiny Whisper model in whisper.cpp's own GGML file format, with random weights, so the tests and
 * the bench run the real runtime (@fugood/node-whisper-*) end to end without downloading real weights.
 * It recognises nothing: its "words" are vocabulary entries like " wq3". What it exercises is the plumbing:
 * loading, the 16 kHz PCM path, windows, timestamps, the child process, chunking and stitching.
 *
 * Layout (whisper.cpp src/whisper.cpp, whisper_model_load): magic 0x67676d6c; 11 int32 hparams; mel
 * filters (n_mel, n_fft, floats); vocabulary (count, then length-prefixed tokens); tensors, each
 * n_dims, name length, type (0 = f32, 1 = f16), dims (ggml order, fastest first), name, data. ftype 1
 * (f16 matrices and convolutions, as whisper.cpp's CPU convolution requires); n_vocab 51865 makes it
 * multilingual (language tokens), as the default model is.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";

export interface TinyWhisperOptions {
  /** Width of both encoder and decoder. Default 64. */
  state?: number;
  /** Attention heads. Default 2. */
  heads?: number;
  /** Encoder and decoder layers each. Default 1. */
  layers?: number;
  seed?: number;
}

const N_VOCAB = 51865;
/** Text tokens of the multilingual vocabulary (0…50256); the special tokens follow and are made by whisper.cpp. */
const TEXT_TOKENS = 50257;
const SPACE_TOKEN = 220;
const N_AUDIO_CTX = 1500;
const N_TEXT_CTX = 448;
const N_MELS = 80;
const N_FFT = 201;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** IEEE half-precision bits of a small float (|x| < 65504; subnormals flushed to zero). */
function toHalf(x: number): number {
  const f = new Float32Array([x]);
  const bits = new Uint32Array(f.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  return sign | (exponent << 10) | ((bits >>> 13) & 0x3ff);
}

function int32s(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeInt32LE(v, 4 * i));
  return b;
}

/** Writes the model to `file`; resolves with its size in bytes. */
export async function writeTinyWhisperModel(file: string, options: TinyWhisperOptions = {}): Promise<number> {
  const state = options.state ?? 64;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 1;
  const random = rng(options.seed ?? 1);
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (chunk: Buffer) => {
    bytes += chunk.length;
    if (!out.write(chunk)) await once(out, "drain");
  };

  await write(
    int32s(0x67676d6c, N_VOCAB, N_AUDIO_CTX, state, heads, layers, N_TEXT_CTX, state, heads, layers, N_MELS, 1),
  );
  const filters = new Float32Array(N_MELS * N_FFT).map(() => random() * 0.02);
  await write(int32s(N_MELS, N_FFT));
  await write(Buffer.from(filters.buffer));

  await write(int32s(TEXT_TOKENS));
  const vocab: Buffer[] = [];
  for (let i = 0; i < TEXT_TOKENS; i++) {
    // whisper.cpp looks up " " (suppress_blank); the id is GPT-2's.
    const token = Buffer.from(i === SPACE_TOKEN ? " " : ` w${i.toString(36)}`, "utf8");
    vocab.push(int32s(token.length), token);
  }
  await write(Buffer.concat(vocab));

  // Matrices (2-D weights) and convolution kernels are f16; vectors and positional embeddings f32.
  const tensor = async (name: string, dims: number[], fill: "random" | "one" | "zero") => {
    const count = dims.reduce((a, b) => a * b, 1);
    const half = name.endsWith(".weight") && dims.length > 1;
    const data = half ? new Uint16Array(count) : new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const value = fill === "one" ? 1 : fill === "random" ? (random() - 0.5) * 0.1 : 0;
      data[i] = half ? toHalf(value) : value;
    }
    const nameBytes = Buffer.from(name, "utf8");
    await write(Buffer.concat([int32s(dims.length, nameBytes.length, half ? 1 : 0, ...dims), nameBytes]));
    await write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  };
  const block = async (prefix: string, attn: string) => {
    await tensor(`${prefix}.${attn}_ln.weight`, [state], "one");
    await tensor(`${prefix}.${attn}_ln.bias`, [state], "zero");
    await tensor(`${prefix}.${attn}.query.weight`, [state, state], "random");
    await tensor(`${prefix}.${attn}.query.bias`, [state], "zero");
    await tensor(`${prefix}.${attn}.key.weight`, [state, state], "random");
    await tensor(`${prefix}.${attn}.value.weight`, [state, state], "random");
    await tensor(`${prefix}.${attn}.value.bias`, [state], "zero");
    await tensor(`${prefix}.${attn}.out.weight`, [state, state], "random");
    await tensor(`${prefix}.${attn}.out.bias`, [state], "zero");
  };
  const mlp = async (prefix: string) => {
    await tensor(`${prefix}.mlp_ln.weight`, [state], "one");
    await tensor(`${prefix}.mlp_ln.bias`, [state], "zero");
    await tensor(`${prefix}.mlp.0.weight`, [state, 4 * state], "random");
    await tensor(`${prefix}.mlp.0.bias`, [4 * state], "zero");
    await tensor(`${prefix}.mlp.2.weight`, [4 * state, state], "random");
    await tensor(`${prefix}.mlp.2.bias`, [state], "zero");
  };

  await tensor("encoder.positional_embedding", [state, N_AUDIO_CTX], "random");
  await tensor("encoder.conv1.weight", [3, N_MELS, state], "random");
  await tensor("encoder.conv1.bias", [1, state], "zero");
  await tensor("encoder.conv2.weight", [3, state, state], "random");
  await tensor("encoder.conv2.bias", [1, state], "zero");
  await tensor("encoder.ln_post.weight", [state], "one");
  await tensor("encoder.ln_post.bias", [state], "zero");
  for (let i = 0; i < layers; i++) {
    await mlp(`encoder.blocks.${i}`);
    await block(`encoder.blocks.${i}`, "attn");
  }
  await tensor("decoder.positional_embedding", [state, N_TEXT_CTX], "random");
  await tensor("decoder.token_embedding.weight", [state, N_VOCAB], "random");
  await tensor("decoder.ln.weight", [state], "one");
  await tensor("decoder.ln.bias", [state], "zero");
  for (let i = 0; i < layers; i++) {
    await mlp(`decoder.blocks.${i}`);
    await block(`decoder.blocks.${i}`, "attn");
    await block(`decoder.blocks.${i}`, "cross_attn");
  }
  out.end();
  await once(out, "finish");
  return bytes;
}
