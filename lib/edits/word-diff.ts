// Word-level diff for corrections. No diff library is installed in this project (node_modules has neither
// `diff` nor `fast-diff`), and adding one for ~50 lines would add a dependency every platform's lockfile must
// carry; this is Myers' O((N+M)·D) algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986), which
// is fast exactly where corrections are: long sequences with few differences. Its cost is bounded: past
// `maxEdits` differences the middle is reported as one replacement (delete all, insert all), still a correct
// diff, only a coarser one. Memory is O(D²) (each step keeps only the diagonals it reached), 16 MB at D = 2,000.

/** One run of a diff: `equal` tokens are in both, `delete` only in the old sequence, `insert` only in the new. */
export interface DiffRun {
  op: "equal" | "delete" | "insert";
  /** Index of the run's first token in the old (equal, delete) or new (insert) sequence. */
  from: number;
  /** The index of the same place in the other sequence (new for equal/delete, old for insert). */
  at: number;
  tokens: string[];
}

/** The most differences aligned exactly (see above). */
export const MAX_EDITS = 2000;

/** Words of a text: runs of non-space characters (punctuation stays with its word, as it is written). */
export function tokenize(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== "");
}

/** The diff of two token sequences, in order; adjacent runs of one kind merged. */
export function diffTokens(a: readonly string[], b: readonly string[], maxEdits = MAX_EDITS): DiffRun[] {
  // Common prefix and suffix first: the usual correction touches a few words in the middle.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: ("equal" | "delete" | "insert")[] = [];
  for (let i = 0; i < pre; i++) ops.push("equal");
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  ops.push(...myers(midA, midB, maxEdits));
  for (let i = 0; i < suf; i++) ops.push("equal");
  return runs(ops, a, b);
}

function runs(ops: readonly ("equal" | "delete" | "insert")[], a: readonly string[], b: readonly string[]): DiffRun[] {
  const out: DiffRun[] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    const token = op === "insert" ? b[j]! : a[i]!;
    const last = out[out.length - 1];
    if (last && last.op === op) last.tokens.push(token);
    else out.push({ op, from: op === "insert" ? j : i, at: op === "insert" ? i : j, tokens: [token] });
    if (op !== "insert") i++;
    if (op !== "delete") j++;
  }
  return out;
}

/** The edit script of a and b (equal/delete/insert per step), by Myers' greedy forward search with a trace. */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): ("equal" | "delete" | "insert")[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return Array<"insert">(m).fill("insert");
  if (m === 0) return Array<"delete">(n).fill("delete");
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // The diagonals step d can read: k - 1 and k + 1 for k in [-d, d].
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    v = next;
  }
  // Too many differences to be worth aligning: one replacement.
  return [...Array<"delete">(n).fill("delete"), ...Array<"insert">(m).fill("insert")];
}

function backtrack(trace: Int32Array[], dEnd: number, n: number, m: number): ("equal" | "delete" | "insert")[] {
  const ops: ("equal" | "delete" | "insert")[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const slice = trace[d]!; // the furthest reaching paths before step d, diagonals -d-1 … d+1
    const at = (diagonal: number) => slice[diagonal + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      ops.push("equal");
      x--;
      y--;
    }
    ops.push(down ? "insert" : "delete");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push("equal");
    x--;
    y--;
  }
  return ops.reverse();
}
