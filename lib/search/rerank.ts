// Search by meaning's second stage, as arithmetic: the first stage's best candidates re-scored by how close each
// passage read whole is (where it has been read), and the floor that says a question is about nothing here chosen
// from judged questions. No database, no model: lib/search/second-stage.ts brings the closeness, the eval the
// judged questions.
import type { SecondStageScale } from "@/lib/embeddings/second-stage";

/** The first stage's candidates that are re-ranked: its best this many, by its own closeness, no floor applied. */
export const RERANK_CANDIDATES = 60;

/** Where `score` lies on `scale`: 0 at its floor, 1 at its "close". */
export const onScale = (scale: SecondStageScale, score: number) => (score - scale.floor) / (scale.close - scale.floor);

/** The score at `at` on `scale` (onScale's inverse). */
export const fromScale = (scale: SecondStageScale, at: number) => scale.floor + at * (scale.close - scale.floor);

/** The `n` best by score (ties: the higher pid), best first. */
export function best<T extends { pid: bigint; score: number }>(candidates: readonly T[], n: number): T[] {
  return [...candidates].sort((a, b) => b.score - a.score || (b.pid > a.pid ? 1 : -1)).slice(0, n);
}

/**
 * How close a question's best candidates are, by both stages: where its best candidate by the first stage lies on
 * the first stage's scale plus where its best the second stage read lies on the second's. A question in other words
 * than the speaker's has a passage close by the second stage, or by both somewhat; one about nothing here is only
 * as close by either as a common topic makes it. Null when the second stage read none of them.
 */
export function closenessOfBest(
  candidates: readonly { pid: bigint; score: number }[],
  second: ReadonlyMap<bigint, number>,
  first: SecondStageScale,
  scale: SecondStageScale,
): number | null {
  let byFirst = -Infinity;
  let bySecond = -Infinity;
  for (const { pid, score } of candidates) {
    byFirst = Math.max(byFirst, score);
    const closeness = second.get(pid);
    if (closeness !== undefined) bySecond = Math.max(bySecond, closeness);
  }
  return bySecond === -Infinity ? null : onScale(first, byFirst) + onScale(scale, bySecond);
}

/**
 * The first stage's candidates re-ranked, best first: each of its RERANK_CANDIDATES best that the second stage has
 * read (`second`: its closeness to the query) scored by that closeness, set on the first stage's scale (its floor
 * to its floor, its "close" to its "close", so closeness words and fusion read it as the first stage's); one it has
 * not read keeps its own score, and is dropped below the first stage's floor. Nothing (`closeness` under the second
 * stage's `answer`) when the best candidates are not close enough by both stages (closenessOfBest).
 */
export function rerank<T extends { pid: bigint; score: number }>(
  candidates: readonly T[],
  second: ReadonlyMap<bigint, number>,
  first: SecondStageScale,
  scale: SecondStageScale & { answer: number },
  { candidatesMax = RERANK_CANDIDATES }: { candidatesMax?: number } = {},
): { ranked: T[]; closeness: number | null } {
  const top = best(candidates, candidatesMax);
  const closeness = closenessOfBest(top, second, first, scale);
  if (closeness !== null && closeness < scale.answer) return { ranked: [], closeness };
  const out: T[] = [];
  for (const candidate of top) {
    const by = second.get(candidate.pid);
    if (by !== undefined) out.push({ ...candidate, score: fromScale(first, onScale(scale, by)) });
    else if (candidate.score >= first.floor) out.push(candidate);
  }
  return { ranked: best(out, out.length), closeness };
}

/**
 * Candidates of one transcript re-ranked when an alert asks each transcript apart (a check, a preview): its best this
 * many, so a preview of many transcripts reads a bounded number of vectors for each, as a check of one does.
 */
export const RERANK_CANDIDATES_PER_TRANSCRIPT = 20;

/** The candidates the second stage reads: the best RERANK_CANDIDATES, or each transcript's best few (`perTranscript`). */
export function rerankGroups<T extends { pid: bigint; score: number; transcriptId: string }>(
  candidates: readonly T[],
  perTranscript: boolean,
): T[][] {
  if (!perTranscript) return [best(candidates, RERANK_CANDIDATES)];
  const groups = new Map<string, T[]>();
  for (const c of candidates) {
    const group = groups.get(c.transcriptId);
    if (group) group.push(c);
    else groups.set(c.transcriptId, [c]);
  }
  return [...groups.values()].map((group) => best(group, RERANK_CANDIDATES_PER_TRANSCRIPT));
}

/**
 * Each group of rerankGroups re-ranked and judged "nothing close" apart (rerank), merged best first; the closeness is
 * the closest group's (null when the second stage read none of any).
 */
export function rerankEach<T extends { pid: bigint; score: number }>(
  groups: readonly (readonly T[])[],
  second: ReadonlyMap<bigint, number>,
  first: SecondStageScale,
  scale: SecondStageScale & { answer: number },
): { ranked: T[]; closeness: number | null } {
  const reranked = groups.map((group) => rerank(group, second, first, scale, { candidatesMax: group.length }));
  const judged = reranked.flatMap((r) => (r.closeness === null ? [] : [r.closeness]));
  return {
    ranked: best(
      reranked.flatMap((r) => r.ranked),
      Infinity,
    ),
    closeness: judged.length === 0 ? null : Math.max(...judged),
  };
}

/** A floor chosen from judged questions, and what it does to them. */
export interface Calibrated {
  floor: number;
  /** The share of the paraphrases whose best candidate is below it: left with nothing by meaning. */
  paraphrasesEmpty: number;
  /** The share of the off-topic questions whose best candidate is below it: "nothing close". */
  offTopicNothing: number;
}

/** The shares of `paraphraseBest` and `offTopicBest` (each question's best closeness; -Infinity: none) below `floor`. */
export function atFloor(floor: number, paraphraseBest: readonly number[], offTopicBest: readonly number[]): Calibrated {
  const below = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.filter((x) => x < floor).length / xs.length);
  return { floor, paraphrasesEmpty: below(paraphraseBest), offTopicNothing: below(offTopicBest) };
}

/**
 * The highest floor, on a grid of `step`, that leaves at most `emptyMax` of the paraphrases with nothing (their
 * best candidates' closeness below it, -Infinity where another rule already left them with nothing): the most
 * off-topic questions answered "nothing close" that the paraphrases allow.
 */
export function calibrateFloor(
  paraphraseBest: readonly number[],
  offTopicBest: readonly number[],
  { emptyMax = 1 / 40, step = 0.01 }: { emptyMax?: number; step?: number } = {},
): Calibrated {
  const sorted = [...paraphraseBest].sort((a, b) => a - b);
  const allowed = Math.floor(emptyMax * sorted.length + 1e-9);
  // Those another rule left with nothing count against the allowance: the floor goes no higher than the next one.
  const already = sorted.filter((x) => x === -Infinity).length;
  if (already > allowed) {
    const next = sorted[already] ?? 0;
    return atFloor(Math.round(Math.floor(next / step + 1e-9) * step * 1e6) / 1e6, paraphraseBest, offTopicBest);
  }
  // At most `allowed` below it: at or under the (allowed + 1)-th lowest best, rounded down to the grid.
  const bound = sorted[Math.min(allowed, sorted.length - 1)] ?? 0;
  const floor = Math.floor(bound / step + 1e-9) * step;
  return atFloor(Math.round(floor * 1e6) / 1e6, paraphraseBest, offTopicBest);
}
