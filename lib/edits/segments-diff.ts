import type { Segment } from "@/lib/formats";
import { diffBudget, diffTokens, DIFF_STEPS, tokenize, type DiffBudget } from "@/lib/edits/word-diff";

// A revision's words against the original's, as the changes a person reads (GET …/revisions/{id}/diff), each with
// the times of the segments it falls in.

interface Located {
  tokens: string[];
  /** Each token's segment start. */
  starts: number[];
}

function locate(segments: readonly Segment[]): Located {
  const tokens: string[] = [];
  const starts: number[] = [];
  for (const s of segments)
    for (const t of tokenize(s.text)) {
      tokens.push(t);
      starts.push(s.start);
    }
  return { tokens, starts };
}

type Change = {
  op: "replace" | "delete" | "insert";
  original: string;
  revision: string;
  original_start: number | null;
  revision_start: number | null;
};

/**
 * Word-level differences of two versions, in two steps so that a long transcript with many scattered edits
 * stays cheap and exact: segments first, by their times (a correction keeps them: aligned segments are then
 * diffed word by word, pair by pair), then the words of each run of added, removed or re-timed segments.
 * Each step is Myers' diff, all of them drawing from one budget (beyond it, coarser but still correct answers).
 */
export function diffSegments(
  a: readonly Segment[],
  b: readonly Segment[],
  budget: DiffBudget = diffBudget(DIFF_STEPS),
) {
  const changes: Change[] = [];
  let unchanged = 0;
  const times = (s: Segment) => `${Math.round(s.start * 1000)}:${Math.round(s.end * 1000)}`;
  const segmentRuns = diffTokens(a.map(times), b.map(times), budget);
  let i = 0;
  while (i < segmentRuns.length) {
    const run = segmentRuns[i]!;
    if (run.op === "equal") {
      for (let j = 0; j < run.tokens.length; j++) {
        const old = a[run.from + j]!;
        const now = b[run.at + j]!;
        if (old.text === now.text) unchanged += tokenize(old.text).length;
        else {
          const words = wordChanges(locate([old]), locate([now]), budget);
          unchanged += words.unchanged;
          changes.push(...words.changes);
        }
      }
      i++;
      continue;
    }
    // A run of changed segments (deleted, inserted, or both): their words, diffed.
    const from: Segment[] = [];
    const to: Segment[] = [];
    // Where the run is in each version: a change with no words on one side is placed there.
    const first = segmentRuns[i]!;
    const aAt = a[first.op === "delete" ? first.from : first.at]?.start ?? a.at(-1)?.start ?? null;
    const bAt = b[first.op === "insert" ? first.from : first.at]?.start ?? b.at(-1)?.start ?? null;
    while (i < segmentRuns.length && segmentRuns[i]!.op !== "equal") {
      const r = segmentRuns[i]!;
      if (r.op === "delete") from.push(...a.slice(r.from, r.from + r.tokens.length));
      else to.push(...b.slice(r.from, r.from + r.tokens.length));
      i++;
    }
    const words = wordChanges(locate(from), locate(to), budget);
    unchanged += words.unchanged;
    changes.push(
      ...words.changes.map((c) => ({
        ...c,
        original_start: c.original_start ?? aAt,
        revision_start: c.revision_start ?? bAt,
      })),
    );
  }
  return {
    original_words: a.reduce((n, s) => n + tokenize(s.text).length, 0),
    revision_words: b.reduce((n, s) => n + tokenize(s.text).length, 0),
    unchanged_words: unchanged,
    changes,
  };
}

function wordChanges(a: Located, b: Located, budget: DiffBudget): { changes: Change[]; unchanged: number } {
  const runs = diffTokens(a.tokens, b.tokens, budget);
  const changes: Change[] = [];
  let unchanged = 0;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (run.op === "equal") {
      unchanged += run.tokens.length;
      continue;
    }
    const next = runs[i + 1];
    if (run.op === "delete" && next?.op === "insert") {
      changes.push({
        op: "replace",
        original: run.tokens.join(" "),
        revision: next.tokens.join(" "),
        original_start: a.starts[run.from] ?? null,
        revision_start: b.starts[next.from] ?? null,
      });
      i++;
    } else if (run.op === "delete") {
      changes.push({
        op: "delete",
        original: run.tokens.join(" "),
        revision: "",
        original_start: a.starts[run.from] ?? null,
        revision_start: b.starts[run.at] ?? b.starts[b.starts.length - 1] ?? null,
      });
    } else {
      changes.push({
        op: "insert",
        original: "",
        revision: run.tokens.join(" "),
        original_start: a.starts[run.at] ?? a.starts[a.starts.length - 1] ?? null,
        revision_start: b.starts[run.from] ?? null,
      });
    }
  }
  return { changes, unchanged };
}
