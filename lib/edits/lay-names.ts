import type { Segment } from "@/lib/formats/types";
import { textTurns, type TextTurn } from "@/lib/captions/parse/text-turns";
import { SAVE_DIFF_STEPS } from "@/lib/edits/retime";
import { diffBudget, diffTokens, tokenize, type DiffBudget } from "@/lib/edits/word-diff";
import type { NamesJob, NamesOutcome } from "@/lib/transcripts/published-text-names";

export type { NamesJob } from "@/lib/transcripts/published-text-names";

// A publisher's text transcript laid over recognised segments, as a correction is: a word diff (one shared
// budget) matches the recognised words to the publisher's, and each recognised word that matches takes the
// speaker of the turn it is in (an unmatched word, that of the matched word before it in its segment). A
// segment whose words change speaker is split at the change when it has a time for each of its words (its
// pieces keep those times); one without word times takes the speaker most of its matched words have. Only
// the names are taken: the recognised text and its times stay. A poor match (below MIN_MATCH of the
// recognised words) changes nothing.

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

/** `segment` split where its words' speakers change (`speakers`: one per token of its text). */
function splitAtTurns(segment: Segment, tokens: string[], speakers: (string | undefined)[]): Segment[] {
  const words = segment.words!;
  const out: Segment[] = [];
  let from = 0;
  for (let i = 1; i <= tokens.length; i++) {
    if (i < tokens.length && speakers[i] === speakers[from]) continue;
    const piece: Segment = {
      start: from === 0 ? segment.start : words[from]!.start,
      end: i === tokens.length ? segment.end : words[i - 1]!.end,
      text: tokens.slice(from, i).join(" "),
      words: words.slice(from, i),
    };
    const speaker = speakers[from];
    out.push(speaker === undefined ? piece : { ...piece, speaker });
    from = i;
  }
  return out;
}

export function layNames(segments: readonly Segment[], turns: readonly TextTurn[], budget: DiffBudget): LaidNames {
  const tokens = segments.map((s) => tokenize(s.text));
  const recognised: string[] = [];
  const at: [number, number][] = [];
  tokens.forEach((list, i) =>
    list.forEach((t, k) => {
      const n = norm(t);
      if (n === "") return;
      recognised.push(n);
      at.push([i, k]);
    }),
  );
  const published: string[] = [];
  const speakerOf: (string | undefined)[] = [];
  for (const turn of turns)
    for (const t of tokenize(turn.text)) {
      const n = norm(t);
      if (n === "") continue;
      published.push(n);
      speakerOf.push(turn.speaker);
    }
  const heard = tokens.map((list) => new Array<string | undefined>(list.length).fill(undefined));
  let matched = 0;
  for (const run of diffTokens(recognised, published, budget)) {
    if (run.op !== "equal") continue;
    for (let k = 0; k < run.tokens.length; k++) {
      matched++;
      const [i, j] = at[run.from + k]!;
      heard[i]![j] = speakerOf[run.at + k];
    }
  }
  const match = recognised.length === 0 ? 0 : matched / recognised.length;
  if (match < MIN_MATCH) return { segments: [...segments], match, applied: false };
  const out = segments.flatMap((s, i) => {
    const speakers = heard[i]!;
    const votes = new Map<string, number>();
    for (const name of speakers) if (name !== undefined) votes.set(name, (votes.get(name) ?? 0) + 1);
    if (votes.size === 0) return [s];
    if (votes.size > 1 && s.words?.length === speakers.length) {
      let last = speakers.find((x) => x !== undefined);
      for (let k = 0; k < speakers.length; k++) last = speakers[k] = speakers[k] ?? last;
      return splitAtTurns(s, tokens[i]!, speakers);
    }
    let best: string | undefined;
    let most = 0;
    for (const [name, n] of votes) if (n > most) [best, most] = [name, n];
    return [{ ...s, speaker: best! }];
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
