import { describe, expect, it } from "vitest";
import { diffBudget, diffTokens, type DiffRun } from "@/lib/edits/word-diff";

/** The length of a longest common subsequence, by the textbook table. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** A seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The old and the new sequence a diff describes, and how many tokens it keeps. */
function replay(runs: readonly DiffRun[]) {
  const old: string[] = [];
  const now: string[] = [];
  let equal = 0;
  for (const run of runs) {
    if (run.op !== "insert") old.push(...run.tokens);
    if (run.op !== "delete") now.push(...run.tokens);
    if (run.op === "equal") equal += run.tokens.length;
  }
  return { old, now, equal };
}

const letters = (count: number, from = 0) => Array.from({ length: count }, (_, i) => "abcdefghij"[(i + from) % 10]!);

describe("diffTokens (linear-space Myers)", () => {
  it("is a minimal diff: keeps as many tokens as a longest common subsequence, on random small inputs", () => {
    const next = random(51);
    for (let round = 0; round < 3000; round++) {
      const alphabet = 1 + Math.floor(next() * 5);
      const token = () => String(Math.floor(next() * alphabet));
      const a = Array.from({ length: Math.floor(next() * 14) }, token);
      const b = Array.from({ length: Math.floor(next() * 14) }, token);
      const runs = diffTokens(a, b);
      const { old, now, equal } = replay(runs);
      expect({ a, b, old, now, equal }).toEqual({ a, b, old: a, now: b, equal: lcs(a, b) });
      // Each run's indexes point at its tokens in both sequences.
      for (const run of runs) {
        const [source, other] = run.op === "insert" ? [b, a] : [a, b];
        expect(source.slice(run.from, run.from + run.tokens.length)).toEqual(run.tokens);
        if (run.op === "equal") expect(other.slice(run.at, run.at + run.tokens.length)).toEqual(run.tokens);
      }
    }
  });

  it("one word against 2,500 takes a few steps per token, not one per pair", () => {
    const budget = diffBudget(Number.MAX_SAFE_INTEGER);
    const runs = diffTokens(["zz"], letters(2500), budget);
    expect(runs.map((r) => r.op)).toEqual(["delete", "insert"]);
    expect(budget.used).toBeLessThanOrEqual(4 * 2501);
  });

  it("past its budget, the rest is one replacement between the common ends: still a correct diff", () => {
    const next = random(7);
    const a = ["same", ...Array.from({ length: 2000 }, () => String(Math.floor(next() * 30))), "end"];
    const b = ["same", ...Array.from({ length: 2000 }, () => String(Math.floor(next() * 30))), "end"];
    const budget = diffBudget(10_000);
    const { old, now, equal } = replay(diffTokens(a, b, budget));
    expect(old).toEqual(a);
    expect(now).toEqual(b);
    expect(equal).toBeGreaterThanOrEqual(2);
    expect(budget.used).toBeLessThanOrEqual(10_000);
    // Unbounded, the same pair costs far more steps than that budget.
    const unbounded = diffBudget(Number.MAX_SAFE_INTEGER);
    diffTokens(a, b, unbounded);
    expect(unbounded.used).toBeGreaterThan(100 * 10_000);
  });

  it("diffs share one budget: once it is spent, the next diff is coarse at once", () => {
    const budget = diffBudget(50);
    diffTokens(letters(40), letters(40, 3), budget);
    expect(budget.left).toBeLessThanOrEqual(0);
    const used = budget.used;
    const runs = diffTokens(["a", "x", "b", "c"], ["a", "b", "y", "c"], budget);
    expect(runs.map((r) => r.op)).toEqual(["equal", "delete", "insert", "equal"]);
    expect(budget.used).toBe(used);
  });
});
