// The lists' k-means, on int8 vectors as they are stored: separate groups become lists of their own, every list
// keeps a vector, a training is repeatable from its seed, and assigning gives each vector its nearest centroid.
import { describe, expect, it } from "vitest";
import { answerListsJob } from "./vector-lists-job";

const DIMS = 8;

/** `groups` directions (one axis each), `per` vectors around each, as int8 bytes; and each vector's group. */
function grouped(groups: number, per: number): { vectors: Uint8Array; group: number[] } {
  const vectors = new Uint8Array(groups * per * DIMS);
  const signed = new Int8Array(vectors.buffer);
  const group: number[] = [];
  for (let g = 0; g < groups; g++)
    for (let i = 0; i < per; i++) {
      const at = (g * per + i) * DIMS;
      for (let d = 0; d < DIMS; d++) signed[at + d] = ((g * 31 + i * 17 + d * 7) % 11) - 5;
      signed[at + g] = 100;
      group.push(g);
    }
  return { vectors, group };
}

describe("the vector lists' k-means", () => {
  it("makes one list of each group, none empty, the same from the same seed", () => {
    const { vectors, group } = grouped(4, 30);
    const job = { kind: "vector-lists", dims: DIMS, centroids: null, lists: 4, iterations: 12, seed: 7 } as const;
    const trained = answerListsJob({ ...job, vectors: vectors.slice() });
    expect(trained.centroids.length).toBe(4 * DIMS);
    // Each group is wholly one list, and the four lists are four different ones.
    const listOf = new Map<number, number>();
    group.forEach((g, i) => {
      if (!listOf.has(g)) listOf.set(g, trained.nearest[i]!);
      expect(trained.nearest[i]).toBe(listOf.get(g));
    });
    expect(new Set(listOf.values()).size).toBe(4);
    for (let j = 0; j < 4; j++) {
      const norm = Math.hypot(...trained.centroids.subarray(j * DIMS, (j + 1) * DIMS));
      expect(norm).toBeCloseTo(1, 5);
    }
    expect(answerListsJob({ ...job, vectors: vectors.slice() }).centroids).toEqual(trained.centroids);
  });

  it("assigns each vector the nearest of given centroids", () => {
    const { vectors } = grouped(3, 5);
    const centroids = new Float32Array(3 * DIMS);
    centroids[0 * DIMS + 2] = 1;
    centroids[1 * DIMS + 0] = 1;
    centroids[2 * DIMS + 1] = 1;
    const { nearest } = answerListsJob({
      kind: "vector-lists",
      dims: DIMS,
      vectors,
      centroids,
      lists: 3,
      iterations: 0,
      seed: 0,
    });
    expect(Array.from(nearest)).toEqual([...Array(5).fill(1), ...Array(5).fill(2), ...Array(5).fill(0)]);
  });
});
