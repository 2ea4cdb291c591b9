import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { getDb } from "@/lib/db/client";

/** The vocabulary's lock: posting a passage's words (verbatim_search_post) holds it shared, a prune alone. */
export const SEARCH_TERMS_LOCK = "search-terms";
/** Words looked at per transaction: a write waits for one batch at most. */
const BATCH = 10_000;

/**
 * Deletes the words no passage holds any more ("SearchTerm" rows without a posting: their transcripts and
 * corrections deleted or replaced), which a word begun or a spelling would otherwise keep finding first and a
 * hostile upload of made-up words would grow without end. Batches by id, each in a transaction that holds the
 * vocabulary's lock: a word a write in progress has just numbered, its postings not yet written, is never taken
 * from under it. Returns how many were deleted.
 */
export async function deleteUnusedSearchTerms(): Promise<number> {
  const db = await getDb();
  let deleted = 0;
  for (let after = 0; ;) {
    const [batch] = await db.$transaction(async (tx) => {
      await lockUntilCommit(tx, SEARCH_TERMS_LOCK);
      return tx.$queryRaw<{ last: number | null; deleted: number }[]>`
        WITH batch AS (SELECT "id" FROM "SearchTerm" WHERE "id" > ${after} ORDER BY "id" LIMIT ${BATCH}),
        gone AS (
          DELETE FROM "SearchTerm" st USING batch b
          WHERE st."id" = b."id" AND NOT EXISTS (SELECT 1 FROM "SearchPosting" sp WHERE sp."termId" = st."id")
          RETURNING 1
        )
        SELECT (SELECT max("id") FROM batch) AS "last", (SELECT count(*)::int FROM gone) AS "deleted"`;
    });
    deleted += batch!.deleted;
    if (batch!.last === null) return deleted;
    after = batch!.last;
  }
}
