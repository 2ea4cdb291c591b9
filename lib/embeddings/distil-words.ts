// Word vectors distilled from a sentence encoder (Model2Vec's idea, on whole words): each of the default vocabulary's
// most frequent words is given to Universal Sentence Encoder lite alone, and its output kept as that word's vector.
// A word's vector then carries what the encoder learnt of it (pieces shared with related words, meanings learnt from
// paraphrases), where the GloVe-like vectors carry only what words it was said beside. A text's vector is made of
// both (embed.ts). The encoder's 512 dimensions are cut to their 128 principal directions (as Model2Vec does):
// every stored passage and every comparison costs a third of what 512 would, for 0.02 of paraphrase recall@10 on
// the judged set. Done once, on first need, in a worker thread (about 1.4 ms a word on one core), into a compact
// file of word-vectors.ts (int8), written beside its place and renamed into it.
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { loadUseLite, type UseLite } from "./use-lite";
import { WordVectors, WordVectorWriter } from "./word-vectors";

export const DISTILLED_DIMS = 128;
/** The principal directions are those of the most frequent words': the same words whatever else is distilled. */
const BASIS_WORDS = 5_000;
const BASIS_ROUNDS = 10;
const PART = 4096;

export interface DistilOptions {
  /** The USE lite package's folder (use-lite.ts `useLiteFolder`). */
  folder: string;
  /** The default vocabulary's file: its most frequent `maxWords` words are distilled. */
  vocabularyFile: string;
  maxWords: number;
  /** Only these words (of those): a test's texts need no others, and each word's vector is the same either way. */
  only?: readonly string[];
}

/** Distils the words into the compact file `target`; the words and dimensions written. */
export async function distilWords(
  target: string,
  { folder, vocabularyFile, maxWords, only }: DistilOptions,
): Promise<{ words: number; dims: number }> {
  const vocabulary = new WordVectors(await readFile(vocabularyFile));
  let words = vocabulary.mostFrequent(maxWords);
  if (only) {
    const wanted = new Set(only);
    words = words.filter((word) => wanted.has(word));
  }
  const basisWords = vocabulary.mostFrequent(BASIS_WORDS);
  const encoder = await loadUseLite(folder);
  try {
    // The basis words first, in the same parts every time, so their vectors (and the directions) are the same.
    const basisVectors = await embedInParts(encoder, basisWords);
    const basis = principalDirections(basisVectors, encoder.dims, DISTILLED_DIMS);
    const known = new Map(basisWords.map((word, i) => [word, basisVectors[i]!]));
    const rest = words.filter((word) => !known.has(word));
    const writer = new WordVectorWriter(DISTILLED_DIMS, words.length);
    const at = new Map(words.map((word, i) => [word, i]));
    for (const word of words) if (known.has(word)) writer.set(at.get(word)!, project(basis, known.get(word)!));
    for (let from = 0; from < rest.length; from += PART) {
      const part = rest.slice(from, from + PART);
      const vectors = await encoder.embed(part);
      part.forEach((word, i) => writer.set(at.get(word)!, project(basis, vectors[i]!)));
    }
    const partial = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.part`;
    try {
      await writeFile(partial, writer.encode(words, DISTILLED_DIMS));
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
    return { words: words.length, dims: DISTILLED_DIMS };
  } finally {
    encoder.release();
  }
}

async function embedInParts(encoder: UseLite, words: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let from = 0; from < words.length; from += PART)
    out.push(...(await encoder.embed(words.slice(from, from + PART))));
  return out;
}

const unit = (v: Float64Array | Float32Array): Float64Array => {
  const out = Float64Array.from(v);
  const norm = Math.sqrt(out.reduce((sum, x) => sum + x * x, 0)) || 1;
  for (let d = 0; d < out.length; d++) out[d]! /= norm;
  return out;
};

/** `vector` (made unit length) in the `basis` directions' coordinates. */
function project(basis: readonly Float64Array[], vector: Float32Array): Float32Array {
  const u = unit(vector);
  return Float32Array.from(basis, (direction) => {
    let dot = 0;
    for (let d = 0; d < u.length; d++) dot += direction[d]! * u[d]!;
    return dot;
  });
}

/**
 * The `k` principal directions of the unit vectors (their second moment, not centred: centring lost 0.1 of recall):
 * subspace iteration on the dims × dims matrix, from a fixed start, so the same vectors give the same directions.
 * Written here rather than taken from a linear-algebra package: it is thirty lines on a 512 × 512 matrix.
 */
function principalDirections(vectors: readonly Float32Array[], dims: number, k: number): Float64Array[] {
  const moment = new Float64Array(dims * dims);
  for (const vector of vectors) {
    const u = unit(vector);
    for (let i = 0; i < dims; i++) {
      const ui = u[i]!;
      if (ui === 0) continue;
      const row = i * dims;
      for (let j = 0; j < dims; j++) moment[row + j]! += ui * u[j]!;
    }
  }
  // The directions as columns of a dims × k matrix, row-major.
  let q = new Float64Array(dims * k);
  for (let d = 0; d < dims; d++) for (let c = 0; c < k; c++) q[d * k + c] = Math.sin(1 + 7.3 * c + 1.7 * d);
  orthonormalize(q, dims, k);
  for (let round = 0; round < BASIS_ROUNDS; round++) {
    const z = new Float64Array(dims * k);
    for (let i = 0; i < dims; i++)
      for (let j = 0; j < dims; j++) {
        const m = moment[i * dims + j]!;
        if (m === 0) continue;
        for (let c = 0; c < k; c++) z[i * k + c]! += m * q[j * k + c]!;
      }
    orthonormalize(z, dims, k);
    q = z;
  }
  return Array.from({ length: k }, (_, c) => Float64Array.from({ length: dims }, (_, d) => q[d * k + c]!));
}

/**
 * Gram–Schmidt on the columns, each twice (a column the matrix maps to nearly nothing keeps, after one pass, a part
 * along those before it that is as large as what is left): orthogonal to those before it, unit length.
 */
function orthonormalize(m: Float64Array, dims: number, k: number): void {
  for (let c = 0; c < k; c++) {
    for (let pass = 0; pass < 2; pass++)
      for (let p = 0; p < c; p++) {
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += m[d * k + c]! * m[d * k + p]!;
        for (let d = 0; d < dims; d++) m[d * k + c]! -= dot * m[d * k + p]!;
      }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += m[d * k + c]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) m[d * k + c]! /= norm;
  }
}
