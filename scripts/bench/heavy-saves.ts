// A heavy save's time and another user's worst read during it, on PostgreSQL (a fresh database) and on the
// embedded default (PGlite in its thread, a fresh DATA_DIR), through the app's own save (saveEdit) with the rate
// limits lifted: one shape after another on a six-hour video (2,160 segments of 10 s), each the probe's size
// (what the whitespace word bound let through) and, where a bound now refuses that, the largest the bound
// accepts. Meanwhile another user reads their own transcript (the read model) one read after another.
// Then removals of a served correction at the bound (everyday words; CJK, the most postings): restoring the
// original (also with a newer correction all but indexed: two corrections' postings), and deleting the history
// entry, each while the other user reads.
// Then a heavy correction replaced by another 4 s later, while the first is indexed ("replacing"), and three
// users sending four heavy saves each at once under the real rate limits ("users": the refused should answer at
// once; heavy-saves-replace.ts).
// Goal: every save answers within 15 s, and no read waits more than 1 s.
// Each database kind runs in a child process of its own (the app's modules hold one connection per process).
// HEAVY_SAVES_DB=postgres or embedded runs one kind; HEAVY_SAVES_SHAPES=cjk,hyphen runs only those shapes
// ("removals": only the removals); HEAVY_SAVES_SCALE=0.2 shrinks the replacing shapes and the users' saves.
import { figuresOfProcess } from "./own-process";

export async function benchHeavySaves(): Promise<Record<string, number>> {
  const kinds = process.env.HEAVY_SAVES_DB ? [process.env.HEAVY_SAVES_DB] : ["postgres", "embedded"];
  const out: Record<string, number> = {};
  for (const kind of kinds) {
    Object.assign(out, figuresOfProcess("heavy-saves-run.ts", [kind]));
  }
  return out;
}
