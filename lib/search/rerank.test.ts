import { describe, expect, it } from "vitest";
import {
  atFloor,
  calibrateFloor,
  closenessOfBest,
  fromScale,
  onScale,
  rerank,
  rerankEach,
  rerankGroups,
  RERANK_CANDIDATES_PER_TRANSCRIPT,
} from "./rerank";

const FIRST = { floor: 0.69, close: 0.8 };
const SECOND = { floor: 0.3, close: 0.5, answer: 1 };
const c = (pid: number, score: number) => ({ pid: BigInt(pid), score, transcriptId: `t${pid}` });

describe("rerank", () => {
  it("orders the passages the second stage read by its closeness, set on the first stage's scale", () => {
    const { ranked } = rerank(
      [c(1, 0.9), c(2, 0.75), c(3, 0.7)],
      new Map([
        [1n, 0.35],
        [2n, 0.5],
        [3n, 0.4],
      ]),
      FIRST,
      SECOND,
    );
    expect(ranked.map((r) => r.pid)).toEqual([2n, 3n, 1n]);
    expect(ranked[0]!.score).toBeCloseTo(FIRST.close);
    expect(ranked[0]!.transcriptId).toBe("t2");
    expect(onScale(SECOND, 0.4)).toBeCloseTo(0.5);
    expect(ranked[1]!.score).toBeCloseTo(fromScale(FIRST, 0.5));
  });

  it("keeps the first stage's score for a passage not read yet, and its floor", () => {
    const { ranked } = rerank([c(1, 0.85), c(2, 0.6), c(3, 0.72)], new Map([[3n, 0.45]]), FIRST, SECOND);
    expect(ranked.map((r) => [r.pid, r.score])).toEqual([
      [1n, 0.85],
      [3n, fromScale(FIRST, onScale(SECOND, 0.45))],
    ]);
  });

  it("finds nothing close when the best candidates are not close enough by both stages together", () => {
    // Best by the first stage 0.8 (1 on its scale), best read by the second 0.29 (-0.05 on its): 0.95 < 1.
    const far = rerank(
      [c(1, 0.8), c(2, 0.75)],
      new Map([
        [1n, 0.1],
        [2n, 0.29],
      ]),
      FIRST,
      SECOND,
    );
    expect(far.ranked).toEqual([]);
    expect(far.closeness).toBeCloseTo(0.95);
    // A passage close by the second stage answers a question the first stage finds loosely alike.
    const near = rerank([c(1, 0.7), c(2, 0.69)], new Map([[2n, 0.5]]), FIRST, SECOND);
    expect(near.ranked.map((r) => r.pid)).toEqual([2n, 1n]);
  });

  it("says nothing of how close they are when the second stage read none of them", () => {
    expect(closenessOfBest([c(1, 0.9)], new Map(), FIRST, SECOND)).toBeNull();
    expect(rerank([c(1, 0.9), c(2, 0.5)], new Map(), FIRST, SECOND)).toEqual({ ranked: [c(1, 0.9)], closeness: null });
  });

  it("re-ranks only the first stage's best few", () => {
    const many = Array.from({ length: 10 }, (_, i) => c(i + 1, 0.7 + i / 100));
    const second = new Map(many.map((m) => [m.pid, 0.4 + (m.pid === 1n ? 0.3 : 0)]));
    const { ranked } = rerank(many, second, FIRST, SECOND, { candidatesMax: 3 });
    expect(ranked.map((r) => r.pid)).toEqual([10n, 9n, 8n]);
  });
});

describe("rerankEach, each transcript apart", () => {
  const of = (pid: number, score: number, transcriptId: string) => ({ pid: BigInt(pid), score, transcriptId });

  it("judges each transcript by its own best, so one close transcript does not carry a far one", () => {
    const candidates = [of(1, 0.8, "near"), of(2, 0.78, "near"), of(3, 0.8, "far"), of(4, 0.79, "far")];
    const second = new Map([
      [1n, 0.5],
      [2n, 0.3],
      [3n, 0.2],
      [4n, 0.25],
    ]);
    // Judged together, the near transcript's best makes the question answered and the far one's passages stay.
    expect(rerank(candidates, second, FIRST, SECOND).ranked.map((r) => r.pid)).toContain(3n);
    const apart = rerankEach(rerankGroups(candidates, true), second, FIRST, SECOND);
    expect(apart.ranked.map((r) => r.pid)).toEqual([1n, 2n]);
    expect(apart.closeness).toBeCloseTo(onScale(FIRST, 0.8) + onScale(SECOND, 0.5));
  });

  it("reads a bounded few of each transcript, its best by the first stage", () => {
    const many = Array.from({ length: 50 }, (_, i) => of(i + 1, 0.7 + i / 1000, i % 2 === 0 ? "a" : "b"));
    const groups = rerankGroups(many, true);
    expect(groups.map((g) => g.length)).toEqual([RERANK_CANDIDATES_PER_TRANSCRIPT, RERANK_CANDIDATES_PER_TRANSCRIPT]);
    expect(groups.flat().map((c) => c.pid)).toContain(50n);
    expect(groups.flat().map((c) => c.pid)).not.toContain(1n);
    expect(rerankGroups(many, false)).toHaveLength(1);
  });

  it("keeps the first stage's decision for a transcript the second stage has not read", () => {
    const apart = rerankEach(
      rerankGroups([of(1, 0.85, "read"), of(2, 0.83, "unread"), of(3, 0.6, "unread")], true),
      new Map([[1n, 0.1]]),
      FIRST,
      SECOND,
    );
    expect(apart.ranked.map((r) => r.pid)).toEqual([2n]);
  });
});

describe("calibrateFloor", () => {
  it("takes the highest floor that leaves at most 1 in 40 paraphrases with nothing", () => {
    const paraphrases = Array.from({ length: 80 }, (_, i) => 0.3 + i / 100);
    const offTopic = [0.2, 0.25, 0.31, 0.33, 0.5];
    const chosen = calibrateFloor(paraphrases, offTopic);
    // Two of 80 may be below: the third lowest best, 0.32, is the floor.
    expect(chosen.floor).toBeCloseTo(0.32);
    expect(chosen.paraphrasesEmpty).toBe(2 / 80);
    expect(chosen.offTopicNothing).toBe(3 / 5);
  });

  it("rounds down to its grid, so the paraphrase at the bound keeps its answer", () => {
    const chosen = calibrateFloor([0.457, 0.6, 0.7], [0.44, 0.449]);
    expect(chosen.floor).toBeCloseTo(0.45);
    expect(chosen).toMatchObject({ paraphrasesEmpty: 0, offTopicNothing: 1 });
  });

  it("leaves no more paraphrases with nothing than another rule already does, past the allowance", () => {
    const paraphrases = [-Infinity, -Infinity, 1.096, 1.2, 1.3, ...Array.from({ length: 35 }, () => 2)];
    const chosen = calibrateFloor(paraphrases, [-Infinity, 0.9, 1.05, 1.5]);
    expect(chosen.floor).toBeCloseTo(1.09);
    expect(chosen).toMatchObject({ paraphrasesEmpty: 2 / 40, offTopicNothing: 3 / 4 });
  });

  it("says what a floor chosen elsewhere does to these questions", () => {
    expect(atFloor(0.4, [0.3, 0.5], [0.35, 0.45, 0.1, -Infinity])).toEqual({
      floor: 0.4,
      paraphrasesEmpty: 0.5,
      offTopicNothing: 0.75,
    });
  });
});
