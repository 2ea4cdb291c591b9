import { dbKind, getDb } from "@/lib/db/client";

/**
 * Refreshes the planner's statistics of the postings' terms on the embedded database, which runs no autovacuum:
 * nothing else would make them there (on PostgreSQL autovacuum's ANALYZE does). Search reads them to tell a long
 * phrase of common words without counting its postings (commonPostingsEstimate). Only that column, from ANALYZE's
 * sample of the table's rows. Returns whether it ran.
 */
export async function analyzeSearchPostings(): Promise<boolean> {
  if ((await dbKind()) !== "pglite") return false;
  await (await getDb()).$executeRawUnsafe(`ANALYZE "SearchPosting" ("termId")`);
  return true;
}
