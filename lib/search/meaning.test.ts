import { describe, expect, it } from "vitest";
import { closenessOf, DEFAULT_MEANING_PROFILE } from "@/lib/embeddings/meaning-profile";
import { fuse, RRF_K } from "./fuse";
import { answeringLine, readsAsProse } from "./meaning";
import { lineRange } from "./serializers";

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

describe("how a moment matched, and how close", () => {
  it("says words, meaning or both, with the meaning's closeness where meaning found it", () => {
    const fused = fuse(kw([1, "a"], [2, "b"]), near([2, "b"], [3, "c"]));
    expect(fused.map((m) => [Number(m.pid), m.matched, m.similarity])).toEqual([
      [2, "both", 1],
      [1, "words", null],
      [3, "meaning", 0.9],
    ]);
  });

  it("says some_words of a moment holding some of the words, not first, weighed as given", () => {
    // The keyword list holds only some of the query's words: no moment of it goes first (1 and 3 are both first
    // of their list, equal at the same weight: the newer first), and one in both lists stays some_words with its
    // closeness.
    const fused = fuse(kw([1, "a"], [2, "b"]), near([3, "c"], [2, "b"]), 0.7, 0.7);
    expect(fused.map((m) => [Number(m.pid), m.matched, m.similarity])).toEqual([
      [2, "some_words", 0.9],
      [3, "meaning", 1],
      [1, "some_words", null],
    ]);
    expect(fused[0]!.score).toBeCloseTo(0.7 / (RRF_K + 2) + 0.7 / (RRF_K + 2), 12);
    expect(fused[1]!.score).toBeCloseTo(0.7 / (RRF_K + 1), 12);
  });

  it("weighs the meaning list by its embedder's weight", () => {
    const half = fuse(kw([1, "a"]), near([1, "a"], [3, "c"]), 0.5);
    expect(half[0]!.score).toBeCloseTo(1 + 1 / (RRF_K + 1) + 0.5 / (RRF_K + 1), 12);
    expect(half[1]!.score).toBeCloseTo(0.5 / (RRF_K + 2), 12);
    // Between two meaning-only lists, a weaker embedder's place counts for less against a keyword moment's.
    const strong = fuse([], near([5, "x"]), 1)[0]!.score;
    expect(fuse([], near([5, "x"]), 0.7)[0]!.score).toBeLessThan(strong);
  });

  it("says closeness in words on the embedder's own scale", () => {
    const { close, related, floor } = DEFAULT_MEANING_PROFILE;
    expect(closenessOf(DEFAULT_MEANING_PROFILE, close)).toBe("close");
    expect(closenessOf(DEFAULT_MEANING_PROFILE, (close + related) / 2)).toBe("related");
    expect(closenessOf(DEFAULT_MEANING_PROFILE, floor)).toBe("loose");
  });
});

describe("the line that answers", () => {
  it("is the passage's line nearest the query, and where it is in the passage's text", () => {
    const q = Float32Array.of(1, 0);
    expect(answeringLine(q, [Float32Array.of(0, 1), Float32Array.of(0.8, 0.6), null])).toBe(1);
    expect(answeringLine(q, [null, null])).toBeNull();
    expect(lineRange(["one two", "three", "four"], 1)).toEqual([[8, 13]]);
    expect(lineRange(["one"], 3)).toEqual([]);
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
      "the far-right party likely to come second",
      "work for twenty-five minutes",
      "a mother-in-law's advice",
    ]) {
      expect(readsAsProse(q), q).toBe(true);
    }
  });

  it("leaves identifiers, codes, addresses and joined tokens to the keyword search", () => {
    for (const q of [
      "zz-no-such-video-zz",
      "state-of-the-art",
      "covid-19",
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
