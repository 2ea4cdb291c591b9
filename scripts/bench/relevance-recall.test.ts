import { describe, expect, it } from "vitest";
import { recallAt } from "./relevance-recall";

describe("recallAt", () => {
  it("is the share of the best k's places the page fills, a tie at the k-th score as good as the one chosen", () => {
    const best = [0.9, 0.8, 0.1, 0.1, 0.1, 0.1];
    expect(recallAt(best, [0.9, 0.8, 0.1], 3)).toBe(1);
    // Two results at the tied level fill only the one place the best 3 leave there.
    expect(recallAt(best, [0.9, 0.1, 0.1], 3)).toBeCloseTo(2 / 3);
    expect(recallAt(best, [0.1, 0.1, 0.1], 3)).toBeCloseTo(1 / 3);
  });

  it("counts only the page's top k, against the best k", () => {
    expect(recallAt([0.5, 0.4, 0.3], [0.3, 0.2, 0.5, 0.4], 2)).toBe(0);
    expect(recallAt([0.5, 0.4, 0.3], [0.4, 0.5, 0.3], 2)).toBe(1);
  });

  it("is over the matches there are when fewer than k match", () => {
    expect(recallAt([0.7, 0.2], [0.7], 10)).toBe(0.5);
    expect(recallAt([], [], 10)).toBe(1);
    expect(recallAt([], [0.3], 10)).toBe(0);
  });

  it("takes a float4 rank read back as float8 for the same score", () => {
    expect(recallAt([0.1], [Math.fround(0.1)], 1)).toBe(1);
  });
});
