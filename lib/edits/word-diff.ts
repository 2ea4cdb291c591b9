// Word-level diff for corrections, written here rather than taken from a package: no diff library is installed
// (node_modules has neither `diff` nor `fast-diff`), and none takes a work budget shared across many diffs,
// which is what bounds a save. This is Myers' O((N+M)·D) algorithm ("An O(ND) Difference Algorithm and Its
// Variations", 1986) in its linear-space form: the middle snake of the forward and backward searches splits
// the problem in two, recursively (the bisection as diff-match-patch writes it), so memory is O(N+M) and no
// step copies a vector. It is fast exactly where corrections are: long sequences with few differences.
//
// Its work is bounded by a budget of steps (each diagonal visited, each pair of tokens compared) that several
// diffs may draw from in turn (a whole save's segments: retime.ts). Once the budget is spent, what is left to
// align is reported as one replacement (delete all, insert all) after its common prefix and suffix: still a
// correct diff, only a coarser one, found in linear time.

/** One run of a diff: `equal` tokens are in both, `delete` only in the old sequence, `insert` only in the new. */
export interface DiffRun {
  op: "equal" | "delete" | "insert";
  /** Index of the run's first token in the old (equal, delete) or new (insert) sequence. */
  from: number;
  /** The index of the same place in the other sequence (new for equal/delete, old for insert). */
  at: number;
  tokens: string[];
}

/** Steps a diff may still take; `used` counts those taken (also past the budget's end, by at most one step). */
export interface DiffBudget {
  left: number;
  used: number;
}

/** The steps one diff may take when it is given no budget of its own: a 5,000-character segment rewritten. */
export const DIFF_STEPS = 4_000_000;

export function diffBudget(steps: number): DiffBudget {
  return { left: steps, used: 0 };
}

/** Words of a text: runs of non-space characters (punctuation stays with its word, as it is written). */
export function tokenize(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== "");
}

type Op = 0 | 1 | 2; // equal, delete, insert
const EQUAL = 0;
const DELETE = 1;
const INSERT = 2;
const OP_NAMES = ["equal", "delete", "insert"] as const;

/** The diff of two token sequences, in order; adjacent runs of one kind merged. `budget`: shared, or a step count. */
export function diffTokens(
  a: readonly string[],
  b: readonly string[],
  budget: DiffBudget | number = DIFF_STEPS,
): DiffRun[] {
  const ops: Op[] = [];
  align(a, 0, a.length, b, 0, b.length, typeof budget === "number" ? diffBudget(budget) : budget, ops);
  return runs(ops, a, b);
}

function repeat(ops: Op[], op: Op, count: number): void {
  for (let i = 0; i < count; i++) ops.push(op);
}

/** The edit script of a[aLo, aHi) and b[bLo, bHi), appended to `ops`. */
function align(
  a: readonly string[],
  aLo: number,
  aHi: number,
  b: readonly string[],
  bLo: number,
  bHi: number,
  budget: DiffBudget,
  ops: Op[],
): void {
  // Common prefix and suffix first: the usual correction touches a few words in the middle.
  let pre = 0;
  while (aLo + pre < aHi && bLo + pre < bHi && a[aLo + pre] === b[bLo + pre]) pre++;
  repeat(ops, EQUAL, pre);
  aLo += pre;
  bLo += pre;
  let suf = 0;
  while (aHi - suf > aLo && bHi - suf > bLo && a[aHi - 1 - suf] === b[bHi - 1 - suf]) suf++;
  aHi -= suf;
  bHi -= suf;
  if (aLo === aHi) repeat(ops, INSERT, bHi - bLo);
  else if (bLo === bHi) repeat(ops, DELETE, aHi - aLo);
  else {
    const split = middle(a, aLo, aHi, b, bLo, bHi, budget);
    if (split === null) {
      // Past the budget, or nothing in common: one replacement.
      repeat(ops, DELETE, aHi - aLo);
      repeat(ops, INSERT, bHi - bLo);
    } else {
      align(a, aLo, aLo + split.x, b, bLo, bLo + split.y, budget, ops);
      align(a, aLo + split.x, aHi, b, bLo + split.y, bHi, budget, ops);
    }
  }
  repeat(ops, EQUAL, suf);
}

/**
 * A point (x, y) on an optimal path through a[aLo, aHi) × b[bLo, bHi) where the forward and backward searches
 * meet (relative to aLo, bLo), or null when the budget ran out first or the two have nothing in common. Both
 * ranges are non-empty and differ at both ends.
 */
function middle(
  a: readonly string[],
  aLo: number,
  aHi: number,
  b: readonly string[],
  bLo: number,
  bHi: number,
  budget: DiffBudget,
): { x: number; y: number } | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  // Furthest x on each diagonal k = x - y, forward from (0, 0) and backward from (n, m) (as a distance from it).
  const forward = new Int32Array(size).fill(-1);
  const backward = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  // With an odd delta the forward search meets the backward one; with an even one, the other way round.
  const front = delta % 2 !== 0;
  // Diagonals that ran off the grid are skipped from then on (their ends would only run further off).
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  for (let d = 0; d < maxD; d++) {
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const x1 = reach(forward, offset + k1, k1, d, a, aLo, b, bLo, 1, n, m, budget);
      if (x1 < 0) return null;
      const y1 = x1 - k1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else if (front) {
        const j = offset + delta - k1;
        if (j >= 0 && j < size && backward[j] !== -1 && x1 >= n - backward[j]!) return { x: x1, y: y1 };
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const x2 = reach(backward, offset + k2, k2, d, a, aHi - 1, b, bHi - 1, -1, n, m, budget);
      if (x2 < 0) return null;
      const y2 = x2 - k2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const j = offset + delta - k2;
        if (j >= 0 && j < size && forward[j] !== -1) {
          const x1 = forward[j]!;
          const y1 = offset + x1 - j;
          if (x1 >= n - x2) return { x: x1, y: y1 };
        }
      }
    }
  }
  return null;
}

/**
 * One step of one search on diagonal k (at index i of its vector v): the furthest x it reaches in d moves, the
 * run of equal tokens after it followed, and stored in v; -1 when the budget is spent. The search reads a and b
 * from aStart and bStart, forward (dir 1) or from their ends backward (dir -1).
 */
function reach(
  v: Int32Array,
  i: number,
  k: number,
  d: number,
  a: readonly string[],
  aStart: number,
  b: readonly string[],
  bStart: number,
  dir: 1 | -1,
  n: number,
  m: number,
  budget: DiffBudget,
): number {
  if (budget.left-- <= 0) return -1;
  budget.used++;
  let x = k === -d || (k !== d && v[i - 1]! < v[i + 1]!) ? v[i + 1]! : v[i - 1]! + 1;
  let y = x - k;
  const x0 = x;
  while (x < n && y < m && a[aStart + dir * x] === b[bStart + dir * y]) {
    x++;
    y++;
  }
  budget.left -= x - x0;
  budget.used += x - x0;
  v[i] = x;
  return x;
}

function runs(ops: readonly Op[], a: readonly string[], b: readonly string[]): DiffRun[] {
  const out: DiffRun[] = [];
  let i = 0;
  let j = 0;
  for (const code of ops) {
    const op = OP_NAMES[code];
    const token = code === INSERT ? b[j]! : a[i]!;
    const last = out[out.length - 1];
    if (last && last.op === op) last.tokens.push(token);
    else out.push({ op, from: code === INSERT ? j : i, at: code === INSERT ? i : j, tokens: [token] });
    if (code !== INSERT) i++;
    if (code !== DELETE) j++;
  }
  return out;
}
