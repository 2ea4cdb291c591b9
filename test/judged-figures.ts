// The judged set's figures for one ranking by meaning, whatever produces it: each query's results (passages, best
// first, with their closeness), judged against the set's answers. Used by `search-judged` for every candidate
// embedder (ranked here, over the stored passages, exactly), for the app's own search, and by the judged guard.
import type { JudgedQuery } from "./fixtures/captions/judged-search";

export interface JudgedPassage {
  pid: bigint;
  track: string;
  segFrom: number;
  segTo: number;
  text: string;
  /**
   * Found only by some of the question's words (the search's `matched: some_words`, nothing near in meaning): the
   * page says nothing is close in meaning, so an off-topic question answered only so is answered "nothing close".
   */
  someWords?: boolean;
}

export interface Ranked {
  passage: JudgedPassage;
  score: number;
}

const K = 10;
const EVERYDAY_K = 5;
const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const overlaps = (p: JudgedPassage, [track, from, to]: [string, number, number]) =>
  p.track === track && p.segFrom <= to && p.segTo >= from;

/** Recall@10, MRR@10 and nDCG@10 (each answer range found once, binary gain) of one query's results. */
export function judgeOne(answers: JudgedQuery["answers"], results: readonly JudgedPassage[]) {
  const top = results.slice(0, K);
  const found = new Set<number>();
  let dcg = 0;
  let first = -1;
  top.forEach((p, i) => {
    const hit = answers.findIndex((range, r) => !found.has(r) && overlaps(p, range));
    if (answers.some((range) => overlaps(p, range)) && first === -1) first = i;
    if (hit !== -1) {
      found.add(hit);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(answers.length, K); i++) ideal += 1 / Math.log2(i + 2);
  return {
    recall: found.size / Math.min(answers.length, K),
    rr: first === -1 ? 0 : 1 / (first + 1),
    ndcg: ideal === 0 ? 0 : dcg / ideal,
  };
}

export interface JudgedFigures {
  /** `empty`: the share of the paraphrases with no result at all. */
  paraphrase: { recall: number; mrr: number; ndcg: number; n: number; empty: number };
  everydayTop5: number;
  offTopicNothing: number;
  /** The share of off-topic questions with no result at all, not even moments of some of their words. */
  offTopicEmpty: number;
  keyword: { recall: number; mrr: number };
}

/**
 * The figures of `search(q)` over the judged queries: a query's results are those it answers (after any floor the
 * search applies); an off-topic question counts as "nothing close" when it has no result but moments of some of its
 * words, said as such.
 */
export async function judgeSearch(
  queries: readonly JudgedQuery[],
  search: (q: string) => Promise<readonly JudgedPassage[]>,
): Promise<JudgedFigures> {
  const para: ReturnType<typeof judgeOne>[] = [];
  const keyword: ReturnType<typeof judgeOne>[] = [];
  const everyday: number[] = [];
  const nothing: number[] = [];
  // Each kind's own: pooled, the off-topic questions with nothing counted as paraphrases with no result, and back.
  const paraphraseEmpty: number[] = [];
  const offTopicEmpty: number[] = [];
  for (const judged of queries) {
    const results = await search(judged.q);
    if (judged.kind === "meaning") {
      para.push(judgeOne(judged.answers, results));
      paraphraseEmpty.push(results.length === 0 ? 1 : 0);
    } else if (judged.kind === "keyword") keyword.push(judgeOne(judged.answers, results));
    else if (judged.kind === "everyday")
      everyday.push(results.slice(0, EVERYDAY_K).some((p) => judged.answers.some((r) => overlaps(p, r))) ? 1 : 0);
    else {
      nothing.push(results.every((p) => p.someWords) ? 1 : 0);
      offTopicEmpty.push(results.length === 0 ? 1 : 0);
    }
  }
  return {
    paraphrase: {
      recall: mean(para.map((j) => j.recall)),
      mrr: mean(para.map((j) => j.rr)),
      ndcg: mean(para.map((j) => j.ndcg)),
      n: para.length,
      empty: mean(paraphraseEmpty),
    },
    everydayTop5: mean(everyday),
    offTopicNothing: mean(nothing),
    offTopicEmpty: mean(offTopicEmpty),
    keyword: { recall: mean(keyword.map((j) => j.recall)), mrr: mean(keyword.map((j) => j.rr)) },
  };
}

/** The passages nearest `query` among `vectors` (unit vectors by pid), at most 3 a transcript, best first. */
export function nearestExact(
  query: Float32Array | null,
  passages: readonly JudgedPassage[],
  vectors: ReadonlyMap<bigint, Float32Array | null>,
  k: number,
  floor = -1,
): Ranked[] {
  if (!query) return [];
  const scored: Ranked[] = [];
  for (const passage of passages) {
    const v = vectors.get(passage.pid);
    if (!v) continue;
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += v[d]! * query[d]!;
    if (dot >= floor) scored.push({ passage, score: dot });
  }
  scored.sort((a, b) => b.score - a.score);
  const per = new Map<string, number>();
  const out: Ranked[] = [];
  for (const r of scored) {
    const n = (per.get(r.passage.track) ?? 0) + 1;
    per.set(r.passage.track, n);
    if (n > 3) continue;
    out.push(r);
    if (out.length >= k) break;
  }
  return out;
}

/**
 * The lowest closeness at which at least `share` of the off-topic questions find nothing: just above the best
 * score of the off-topic question at that quantile.
 */
export function calibrateFloor(offTopicBest: readonly number[], share = 0.9): number {
  const sorted = [...offTopicBest].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1);
  return Math.round((sorted[at]! + 0.005) * 100) / 100;
}
