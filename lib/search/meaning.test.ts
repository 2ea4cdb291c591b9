import { describe, expect, it } from "vitest";
import { fuse, readsAsProse, RRF_K } from "./meaning";

const kw = (...items: [number, string][]) => items.map(([pid, transcriptId]) => ({ pid: BigInt(pid), transcriptId }));
const near = (...items: [number, string][]) =>
  items.map(([pid, transcriptId], i) => ({ pid: BigInt(pid), transcriptId, score: 1 - i / 10 }));
const pids = (list: { pid: bigint }[]) => list.map((x) => Number(x.pid));

describe("fusing the keyword moments and the nearest passages", () => {
  it("puts every keyword moment first, ordered by both rankings, then the meaning's own", () => {
    const fused = fuse(kw([1, "a"], [2, "b"]), near([2, "b"], [3, "c"], [1, "a"]));
    // 2: second by words, first by meaning (1/62 + 1/61); 1: first by words, third by meaning (1/61 + 1/63); 3,
    // second by meaning, says not every word: after them.
    expect(pids(fused)).toEqual([2, 1, 3]);
    expect(fused[0]!.score).toBeCloseTo(1 + 1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
    expect(fused[2]!.score).toBeCloseTo(1 / (RRF_K + 2), 12);
  });

  it("counts a passage in both lists once, and keeps at most 3 moments a transcript", () => {
    const fused = fuse(kw([1, "a"], [2, "a"]), near([2, "a"], [3, "a"], [4, "a"], [5, "b"]));
    expect(pids(fused)).toEqual([2, 1, 3, 5]);
  });

  it("is the meaning's order alone without keyword moments, and the keyword order alone without meaning", () => {
    expect(pids(fuse([], near([7, "x"], [8, "y"])))).toEqual([7, 8]);
    expect(pids(fuse(kw([9, "x"], [8, "y"]), []))).toEqual([9, 8]);
  });
});

describe("which queries are read by their meaning", () => {
  it("reads words a person says, punctuation and quotes around them included", () => {
    for (const q of [
      "the lone flattop that got away",
      "what's kitty litter for?",
      '"Hiryu" escaped',
      "Über alles",
      "the apollo 11 landing",
      "midway in 1942",
    ]) {
      expect(readsAsProse(q), q).toBe(true);
    }
  });

  it("leaves identifiers, codes, addresses and joined tokens to the keyword search", () => {
    for (const q of [
      "zz-no-such-video-zz",
      "dQw4w9WgXcQ",
      "v2.1 release",
      "user@example.com",
      "snake_case",
      "",
      "  ",
    ]) {
      expect(readsAsProse(q), q).toBe(false);
    }
  });
});
