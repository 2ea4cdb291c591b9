import type { Segment } from "@/lib/formats/types";
import { textTurns, type TextTurn } from "@/lib/captions/parse/text-turns";
import { SAVE_DIFF_STEPS } from "@/lib/edits/retime";
import { diffBudget, diffTokens, tokenize, type DiffBudget } from "@/lib/edits/word-diff";
import type { NamesJob, NamesOutcome } from "@/lib/transcripts/published-text-names";

export type { NamesJob } from "@/lib/transcripts/published-text-names";

// A publisher's text transcript laid over recognised segments, as a correction is: a word diff (one shared
// budget) matches the recognised words to the publisher's; each recognised word that matches takes the
// speaker of the turn it is in, and each segment takes the speaker most of its matched words have. Only the
// names are taken: the recognised text and its times stay. A poor match (below MIN_MATCH of the recognised
// words) changes nothing.

/** The share of recognised words that must match the publisher's for its names to be taken. */
export const MIN_MATCH = 0.6;

export interface LaidNames {
  segments: Segment[];
  /** Matched recognised words over all recognised words. */
  match: number;
  /** Whether the names were taken. */
  applied: boolean;
}

const norm = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

export function layNames(segments: readonly Segment[], turns: readonly TextTurn[], budget: DiffBudget): LaidNames {
  const recognised: string[] = [];
  const segOf: number[] = [];
  segments.forEach((s, i) => {
    for (const t of tokenize(s.text)) {
      const n = norm(t);
      if (n === "") continue;
      recognised.push(n);
      segOf.push(i);
    }
  });
  const published: string[] = [];
  const speakerOf: (string | undefined)[] = [];
  for (const turn of turns)
    for (const t of tokenize(turn.text)) {
      const n = norm(t);
      if (n === "") continue;
      published.push(n);
      speakerOf.push(turn.speaker);
    }
  const votes = segments.map(() => new Map<string, number>());
  let matched = 0;
  for (const run of diffTokens(recognised, published, budget)) {
    if (run.op !== "equal") continue;
    for (let k = 0; k < run.tokens.length; k++) {
      matched++;
      const speaker = speakerOf[run.at + k];
      if (speaker === undefined) continue;
      const v = votes[segOf[run.from + k]!]!;
      v.set(speaker, (v.get(speaker) ?? 0) + 1);
    }
  }
  const match = recognised.length === 0 ? 0 : matched / recognised.length;
  if (match < MIN_MATCH) return { segments: [...segments], match, applied: false };
  const out = segments.map((s, i) => {
    let best: string | undefined;
    let most = 0;
    for (const [name, n] of votes[i]!) if (n > most) [best, most] = [name, n];
    return best === undefined ? s : { ...s, speaker: best };
  });
  return { segments: out, match, applied: true };
}

/** The diff steps one episode's alignment may take (as one correction's save). */
export const NAMES_DIFF_STEPS = SAVE_DIFF_STEPS;

/** A names job's answer, in the worker thread: the text's turns laid over the segments; null when it names no one. */
export function answerNamesJob(job: NamesJob): NamesOutcome {
  const turns = textTurns(job.text);
  if (!turns) return null;
  const laid = layNames(job.segments, turns, diffBudget(NAMES_DIFF_STEPS));
  const names = new Set(turns.flatMap((t) => (t.speaker === undefined ? [] : [t.speaker])));
  return { ...laid, names: names.size };
}
