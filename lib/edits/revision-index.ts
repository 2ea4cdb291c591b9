import { dbKind, getDb } from "@/lib/db/client";
import { log } from "@/lib/observability/logger";

// A saved correction is indexed for search after its save has stored it, in steps (prisma/sql/functions:
// verbatim_index_revision_step), each a transaction of its own that either cuts the next range of segments into
// passages or writes passages' postings for at most INDEX_STEP_MS (and at least one passage): the embedded
// database runs one statement at a time and cannot stop one, so a whole correction's postings (or its cut) in one
// statement held every other request behind it. Other statements run between steps. Search serves the author's
// previous correction (or the transcript) until the new one is whole, then switches in the step that finds nothing
// left to cut. What is left to do is in the database
// ("indexedAt" NULL on the newest correction of a transcript; passages of a replaced one), so work cut short by a
// stop is done again at the next start (resumeRevisionIndexing), whichever process does it.

/** The longest one step indexes passages (it stops after the passage that passes it). */
export const INDEX_STEP_MS = 50;
/**
 * On the embedded database, after each step, at least this, and half as long as the step took: the statements
 * other requests send meanwhile (one after another, each once the last has answered) run before the next step.
 * PostgreSQL runs them beside the steps: no pause there.
 */
const BETWEEN_STEPS_MS = 10;

export type IndexState = "done" | "stale" | "more";

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs `step` and the pause after it while no other step of this process runs, so a request waits behind one step
 * at most: each step of indexing (a save's and the background's take turns), and each save's other long
 * statements (reading the author's current version, storing the new one), however many users save at once.
 */
export function oneStepAtATime<T>(step: () => Promise<T>): Promise<T> {
  const run = turn.then(async () => {
    const began = performance.now();
    try {
      return await step();
    } finally {
      if ((await dbKind()) === "pglite") await pause(Math.max(BETWEEN_STEPS_MS, (performance.now() - began) / 2));
    }
  });
  turn = run.catch(() => {});
  return run;
}

/** One step of indexing correction `revisionId` (see the top of this file). */
export async function indexRevisionStep(revisionId: string, stepMs = INDEX_STEP_MS): Promise<IndexState> {
  const db = await getDb();
  const [row] = await oneStepAtATime(
    () =>
      db.$queryRaw<
        { state: IndexState }[]
      >`SELECT verbatim_index_revision_step(${revisionId}, ${stepMs}::int) AS state`,
  );
  return row!.state;
}

/**
 * Indexes correction `revisionId` step by step until search serves it ("done"), a newer correction replaced it
 * ("stale"), or `until` (performance.now()) has passed ("more": the rest is left to the background).
 */
export async function indexRevision(
  revisionId: string,
  { until = Infinity, stepMs = INDEX_STEP_MS }: { until?: number; stepMs?: number } = {},
): Promise<IndexState> {
  for (;;) {
    const state = await indexRevisionStep(revisionId, stepMs);
    if (state !== "more" || performance.now() >= until) return state;
  }
}

/** Removes, step by step, the passages of corrections search no longer serves; how many. */
export async function dropReplacedPassages(stepMs = INDEX_STEP_MS): Promise<number> {
  const db = await getDb();
  let total = 0;
  for (;;) {
    const [row] = await oneStepAtATime(
      () => db.$queryRaw<{ removed: number }[]>`SELECT verbatim_unindex_revisions_step(${stepMs}::int) AS removed`,
    );
    if (!row || row.removed === 0) return total;
    total += row.removed;
  }
}

/** The corrections search does not serve yet and will: the newest of their (user, transcript), oldest first. */
async function pendingRevisions(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT r."id" FROM "TranscriptRevision" r
    WHERE r."indexedAt" IS NULL
      AND NOT EXISTS (SELECT 1 FROM "TranscriptRevision" n
                      WHERE n."userId" = r."userId" AND n."transcriptId" = r."transcriptId"
                        AND (n."createdAt", n."id") > (r."createdAt", r."id"))
    ORDER BY r."createdAt", r."id"`;
  return rows.map((r) => r.id);
}

/** Every correction left to index, then every replaced correction's passages: what is left in the database. */
export async function indexPendingRevisions(stepMs = INDEX_STEP_MS): Promise<{ indexed: number; dropped: number }> {
  let indexed = 0;
  for (const id of await pendingRevisions())
    try {
      if ((await indexRevision(id, { stepMs })) === "done") indexed++;
    } catch (error) {
      log.error({ err: error, revisionId: id }, "a correction could not be indexed for search");
    }
  return { indexed, dropped: await dropReplacedPassages(stepMs) };
}

const state = globalThis as { verbatimRevisionIndex?: { running: Promise<void>; again: boolean } };

/**
 * Does what indexPendingRevisions does in the background, once at a time in this process (asked again while it
 * runs: once more after it). Failures are logged; the work stays in the database for the next round.
 */
export function indexInBackground(): void {
  if (state.verbatimRevisionIndex) {
    state.verbatimRevisionIndex.again = true;
    return;
  }
  // Its own holder, not read back from globalThis: a holder dropped or replaced meanwhile (a test's module reset)
  // must not end another run's loop or break this one.
  const holder = { running: Promise.resolve(), again: false };
  const run = async () => {
    do {
      holder.again = false;
      try {
        const { indexed, dropped } = await indexPendingRevisions();
        if (indexed > 0 || dropped > 0) log.debug({ indexed, dropped }, "corrections indexed for search");
      } catch (error) {
        log.error({ err: error }, "indexing corrections for search failed");
      }
    } while (holder.again);
    if (state.verbatimRevisionIndex === holder) state.verbatimRevisionIndex = undefined;
  };
  state.verbatimRevisionIndex = holder;
  holder.running = run();
}

/** Once the background indexing of this process is idle (tests; a clean stop). */
export async function revisionIndexIdle(): Promise<void> {
  while (state.verbatimRevisionIndex) await state.verbatimRevisionIndex.running;
}

/** At start: what a stop left undone (a correction indexed in part, a replaced one's passages). */
export const resumeRevisionIndexing = indexInBackground;
