// Seeds many transcripts at once: with the passages' posting triggers on, each transcript's insert posts its
// passages in a call of its own: a million calls, each on a vocabulary growing without statistics, where one call
// for them all does the same work once. Here the triggers are off while the seed inserts, and every passage is
// posted at its end by one call of the function they call, as a migration posts the passages there are: the same
// postings (data-scale.int.test.ts).

const POSTED_TABLES = ["TranscriptPassage", "RevisionPassage"];

/**
 * Runs `seed` in one transaction on the connection `query` sends to, with the posting triggers off, then posts
 * every passage and turns them on again: a seed that fails leaves them on, with nothing seeded.
 */
export async function seedPostingAtTheEnd(
  query: (sql: string) => Promise<unknown>,
  seed: () => Promise<void>,
  timed: (label: string, run: () => Promise<unknown>) => Promise<unknown> = (_label, run) => run(),
): Promise<void> {
  await query("BEGIN");
  try {
    for (const table of POSTED_TABLES) await query(`ALTER TABLE "${table}" DISABLE TRIGGER "${table}_posted"`);
    await seed();
    await timed("postings of every passage", () =>
      query(`SELECT verbatim_search_post(ARRAY(SELECT "pid" FROM "SearchPassage"))`),
    );
    for (const table of POSTED_TABLES) await query(`ALTER TABLE "${table}" ENABLE TRIGGER "${table}_posted"`);
    await query("COMMIT");
  } catch (error) {
    await query("ROLLBACK");
    throw error;
  }
}
