// The floors `npm run eval` holds the app's own search to, on both databases (docs/decisions/0053: the goals the
// search's decisions were taken against). A figure under its floor fails it. The relevance goals were taken on the
// judged set, the corpus search is tuned on, and are floors there; on the second corpus, the one search is reported
// on, no decision has set them, so its figures are recorded beside them without failing the run. What holds on any
// speech (keyword controls all found, the lists of vectors close to HNSW) is a floor on both.
import type { JudgedCorpusName } from "../../test/fixtures/captions/judged-corpora";

export interface Floor {
  /** The figure as `search-judged` names it, without the paraphrases' count. */
  figure: string;
  floor: number;
  /** The floor is below another figure, not a number: `figure` may be at most `floor` under it. */
  below?: string;
  /** The corpora it holds on; the others only record their figure beside it. Both when absent. */
  corpora?: readonly JudgedCorpusName[];
}

const DATABASES = [
  "app search",
  "app search on PGlite (HNSW)",
  "app search with the second stage",
  "app search on PGlite (HNSW) with the second stage",
] as const;

const FUSED: readonly [string, number][] = [
  ["paraphrases recall@10", 0.7],
  ["paraphrases MRR@10", 0.5],
  ["everyday questions answered in the top 5", 0.85],
  ['off-topic questions answered "nothing close"', 0.9],
  ["keyword controls recall@10", 1],
];

/**
 * Re-ranked by the second stage, at most 1 in 40 paraphrases is left with no result (docs/decisions/0058), on both
 * corpora: fused, a paraphrase meaning leaves with nothing still gets the moments of some of its words (0060).
 */
const SECOND_STAGE: readonly Floor[] = DATABASES.filter((d) => d.endsWith("second stage")).map((database) => ({
  figure: `${database}, fused: paraphrases with a result`,
  floor: 0.975,
}));

/**
 * An alert by meaning saved without a closeness fires on at most 1 in 10 of the transcripts that do not answer it, on
 * both corpora, by the first stage alone and with the second (docs/decisions/0060, 0063).
 */
const ALERTS: readonly Floor[] = ["", ", with the second stage,"].map((stages) => ({
  figure: `alerts by meaning${stages} at the default closeness: the other transcripts it stays quiet on`,
  floor: 0.9,
}));

export const RELEVANCE_FLOORS: readonly Floor[] = [
  ...ALERTS,
  ...DATABASES.flatMap((database) =>
    FUSED.map(([name, floor]): Floor => ({
      figure: `${database}, fused: ${name}`,
      floor,
      ...(name.startsWith("keyword") ? {} : { corpora: ["tune"] }),
    })),
  ),
  ...SECOND_STAGE,
  { figure: "app search, keyword-only: keyword controls recall@10", floor: 1 },
  // Without pgvector, past the exact bound, the lists of vectors find what the embedded database's HNSW finds (0048).
  {
    figure:
      "app search through the lists of vectors (PostgreSQL past its exact bound), meaning-only: paraphrases recall@10",
    floor: 0.05,
    below: "app search on PGlite (HNSW), meaning-only: paraphrases recall@10",
  },
];

/** A figure's name without the count its label may carry (`paraphrases (109) recall@10` → `paraphrases recall@10`). */
export const figureName = (label: string) => label.replace(/ \(\d+\)/, "");

/**
 * Each floor beside its figure on `corpus`; a floor whose figure is missing is not held. A floor that does not hold
 * on the corpus is only recorded: `recorded` is true and `held` says whether the figure reaches it.
 */
export function checkFloors(
  figures: Record<string, number>,
  floors: readonly Floor[] = RELEVANCE_FLOORS,
  corpus: JudgedCorpusName = "tune",
) {
  const byName = new Map(Object.entries(figures).map(([label, value]) => [figureName(label), value]));
  return floors.map((f) => {
    const value = byName.get(f.figure);
    const floor = f.below === undefined ? f.floor : (byName.get(f.below) ?? NaN) - f.floor;
    const recorded = f.corpora !== undefined && !f.corpora.includes(corpus);
    return { ...f, floor, value, recorded, held: value !== undefined && value >= floor - 1e-9 };
  });
}
