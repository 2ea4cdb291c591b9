// The CPU work of the vector lists (vector-lists.ts), done in a worker thread (lib/app/parse-worker.ts hands it
// here): centroids trained by spherical k-means on a sample of stored vectors, and each vector's nearest centroid.
// Vectors come as their stored int8 bytes, one after another; a vector's scale changes neither its direction nor
// which centroid is nearest, so it is not sent.
//
// A short k-means of its own rather than a library's (ml-kmeans, the well-kept one on npm): that takes each vector
// as an array of JavaScript numbers (8 bytes a dimension, copied out of the stored 1-byte form: 800 MB for a million
// vectors of 100 dimensions) and measures by a distance callback per pair; this one reads one Float32Array and is
// spherical (cosine, unit centroids), as the search compares. Seeded by k-means++ (Arthur and Vassilvitskii, 2007):
// from random starts two seeds in one group split it and leave two groups one list.

export interface ListsJob {
  kind: "vector-lists";
  dims: number;
  /** n × dims int8 values, vector i at i × dims. */
  vectors: Uint8Array;
  /** Train `lists` centroids on `vectors` (null), or assign each of `vectors` its nearest of these. */
  centroids: Float32Array | null;
  lists: number;
  iterations: number;
  seed: number;
}

export interface ListsAnswer {
  /** lists × dims, unit vectors (the given ones when only assigning). */
  centroids: Float32Array;
  /** Each vector's nearest centroid's place. */
  nearest: Int32Array;
}

/** mulberry32: a small seeded generator, so a training is repeatable. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The int8 bytes as unit vectors (a zero vector stays zero). */
function unitVectors(bytes: Uint8Array, dims: number): Float32Array {
  const signed = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = new Float32Array(signed.length);
  for (let i = 0; i < signed.length; i += dims) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += signed[i + d]! * signed[i + d]!;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dims; d++) out[i + d] = signed[i + d]! * inv;
  }
  return out;
}

/** Each vector's nearest centroid by dot product (cosine: the centroids are unit vectors), and that product. */
function nearestOf(
  vectors: Int8Array | Float32Array,
  dims: number,
  centroids: Float32Array,
): { nearest: Int32Array; best: Float32Array } {
  const n = vectors.length / dims;
  const k = centroids.length / dims;
  const nearest = new Int32Array(n);
  const best = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const at = i * dims;
    let top = -Infinity;
    let place = 0;
    for (let j = 0; j < k; j++) {
      const c = j * dims;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += vectors[at + d]! * centroids[c + d]!;
      if (dot > top) [top, place] = [dot, j];
    }
    nearest[i] = place;
    best[i] = top;
  }
  return { nearest, best };
}

/** `lists` unit centroids by spherical k-means over `vectors` (at most `iterations` rounds), seeded by k-means++. */
export function trainCentroids(
  vectors: Float32Array,
  dims: number,
  lists: number,
  iterations: number,
  seed: number,
): Float32Array {
  const n = vectors.length / dims;
  const k = Math.max(1, Math.min(lists, n));
  const random = generator(seed);
  const centroids = new Float32Array(k * dims);
  // k-means++: each next seed drawn with a chance of its distance (1 − cosine) to the nearest seed so far.
  const distance = new Float64Array(n).fill(Infinity);
  let seedAt = Math.floor(random() * n);
  for (let j = 0; j < k; j++) {
    centroids.set(vectors.subarray(seedAt * dims, (seedAt + 1) * dims), j * dims);
    let total = 0;
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += vectors[i * dims + d]! * centroids[j * dims + d]!;
      distance[i] = Math.min(distance[i]!, Math.max(0, 1 - dot));
      total += distance[i]!;
    }
    let pick = random() * total;
    seedAt = Math.floor(random() * n); // every vector already a seed's (all distances 0): any
    for (let i = 0; i < n && total > 0; i++) {
      pick -= distance[i]!;
      if (pick <= 0 && distance[i]! > 0) {
        seedAt = i;
        break;
      }
    }
  }
  let previous: Int32Array | null = null;
  for (let round = 0; round < iterations; round++) {
    const { nearest, best } = nearestOf(vectors, dims, centroids);
    if (previous && nearest.every((place, i) => place === previous![i])) break;
    previous = nearest;
    const sums = new Float64Array(k * dims);
    const counts = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const c = nearest[i]! * dims;
      counts[nearest[i]!]!++;
      for (let d = 0; d < dims; d++) sums[c + d]! += vectors[i * dims + d]!;
    }
    // An empty list starts again from a vector its centroid fits worst.
    let worst: number[] | null = null;
    let spare = 0;
    for (let j = 0; j < k; j++) {
      if (counts[j] === 0) {
        worst ??= Array.from(best.keys()).sort((a, b) => best[a]! - best[b]!);
        const i = worst[spare++ % n]!;
        for (let d = 0; d < dims; d++) sums[j * dims + d] = vectors[i * dims + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += sums[j * dims + d]! ** 2;
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let d = 0; d < dims; d++) centroids[j * dims + d] = sums[j * dims + d]! * inv;
    }
  }
  return centroids;
}

export function answerListsJob(job: ListsJob): ListsAnswer {
  if (job.centroids) {
    const signed = new Int8Array(job.vectors.buffer, job.vectors.byteOffset, job.vectors.length);
    return { centroids: job.centroids, nearest: nearestOf(signed, job.dims, job.centroids).nearest };
  }
  const vectors = unitVectors(job.vectors, job.dims);
  const centroids = trainCentroids(vectors, job.dims, job.lists, job.iterations, job.seed);
  return { centroids, nearest: nearestOf(vectors, job.dims, centroids).nearest };
}
