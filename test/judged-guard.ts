// The judged set's guard (lib/search/judged-guard.int.test.ts): a few hundred of its passages and the questions
// they answer, small enough for the suite. The whole set is judged by `npm run eval`.
import { textWords } from "../lib/embeddings/embed";
import { JUDGED_QUERIES, JUDGED_TRACKS, judgedTrackSegments } from "./fixtures/captions/judged-search";

/** Two long tracks with keyword controls and ten short talks of other speakers and topics. */
const GUARD_KEYS = new Set([
  "macbook",
  "grit",
  "risk",
  "energy",
  "promise",
  "komodo",
  "jet",
  "betting",
  "ottoman",
  "medusa",
  "voice",
  "feynman",
]);

export const GUARD_TRACKS = JUDGED_TRACKS.filter((t) => GUARD_KEYS.has(t.key));

/** The questions every answer of which is in the guard's tracks. */
export const GUARD_QUERIES = JUDGED_QUERIES.filter(
  (j) => j.answers.length > 0 && j.answers.every(([key]) => GUARD_KEYS.has(key)),
);

/** The words the guard's tracks and questions say (a plural's stem too): the distilled vectors it needs. */
export function guardWords(): string[] {
  const texts = [
    ...GUARD_TRACKS.flatMap((track) => judgedTrackSegments(track).map((segment) => segment.text)),
    ...GUARD_QUERIES.map((judged) => judged.q),
  ];
  const words = new Set<string>();
  for (const word of texts.flatMap(textWords)) words.add(word).add(word.replace(/s$/, ""));
  return [...words];
}
