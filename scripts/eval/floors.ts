// The floors `npm run eval` holds the app's own search to on the judged set, on both databases
// (docs/decisions/0053: the goals the search's decisions were taken against). A figure under its floor fails it.

export interface Floor {
  /** The figure as `search-judged` names it, without the paraphrases' count. */
  figure: string;
  floor: number;
  /** The floor is below another figure, not a number: `figure` may be at most `floor` under it. */
  below?: string;
}

const DATABASES = ["app search", "app search on PGlite (HNSW)"] as const;

const FUSED: readonly [string, number][] = [
  ["paraphrases recall@10", 0.7],
  ["paraphrases MRR@10", 0.5],
  ["everyday questions answered in the top 5", 0.85],
  ['off-topic questions answered "nothing close"', 0.9],
  ["keyword controls recall@10", 1],
];

export const RELEVANCE_FLOORS: readonly Floor[] = [
  ...DATABASES.flatMap((database) => FUSED.map(([name, floor]) => ({ figure: `${database}, fused: ${name}`, floor }))),
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

/** Each floor beside its figure; a floor whose figure is missing is not held. */
export function checkFloors(figures: Record<string, number>, floors: readonly Floor[] = RELEVANCE_FLOORS) {
  const byName = new Map(Object.entries(figures).map(([label, value]) => [figureName(label), value]));
  return floors.map((f) => {
    const value = byName.get(f.figure);
    const floor = f.below === undefined ? f.floor : (byName.get(f.below) ?? NaN) - f.floor;
    return { ...f, floor, value, held: value !== undefined && value >= floor - 1e-9 };
  });
}
