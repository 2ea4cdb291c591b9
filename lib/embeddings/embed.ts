// A text's vector from word vectors: the average of its words' vectors, each weighted by its rarity, made unit
// length. The weight is smooth inverse frequency (Arora et al., 2017: a / (a + p(w))) with p(w) read from the
// word's frequency rank by Zipf's law (p ≈ 1 / (rank · H), H ≈ 13 for a vocabulary of 341,479 words, a = 10⁻³):
// 1 / (1 + 75 / rank). "the" weighs 0.01, the 75th word 0.5, words past the 1,000th almost 1. No corpus figure
// to keep current: a passage embeds the same whenever it is embedded, and a query the same way.
import type { WordVectors } from "./word-vectors";

const ZIPF_WEIGHT = 75;

/** Lower-case runs of letters and digits: the vocabulary is lower case, and punctuation weighs nothing. */
export function textWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const rarityWeight = (rank: number) => 1 / (1 + ZIPF_WEIGHT / (rank + 1));

/** The unit vector of `text`, or null when none of its words has a vector. */
export function embedText(vectors: WordVectors, text: string): Float32Array | null {
  const acc = new Float32Array(vectors.dims);
  let known = 0;
  for (const word of textWords(text)) {
    let rank = vectors.rank(word);
    // A possessive or plural the vocabulary lacks: its stem.
    if (rank === -1 && word.endsWith("s")) rank = vectors.rank(word.slice(0, -1));
    if (rank === -1) continue;
    vectors.addTo(acc, rank, rarityWeight(rank));
    known++;
  }
  if (known === 0) return null;
  let norm = 0;
  for (const x of acc) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm === 0) return null;
  for (let d = 0; d < acc.length; d++) acc[d]! /= norm;
  return acc;
}

/** Cosine of two unit vectors. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
  return dot;
}
