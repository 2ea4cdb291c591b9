import { dbKind, getDb } from "@/lib/db/client";

/**
 * The search tables' upkeep on the embedded database, which runs no autovacuum: nothing else would do it there (on
 * PostgreSQL autovacuum does). VACUUM marks their pages all-visible, so an index-only scan of the postings or the
 * passages reads the index alone, not every row it finds (a phrase of two common words read the table too and took
 * five times a word's search at 100,000 passages); after the first, a VACUUM reads only the pages changed since.
 * ANALYZE makes the statistics of the postings' terms that search reads to tell a long phrase of common words without
 * counting its postings (commonPostingsEstimate): only that column, from its sample of the rows. Returns whether it
 * ran.
 */
export async function maintainSearchTables(): Promise<boolean> {
  if ((await dbKind()) !== "pglite") return false;
  const db = await getDb();
  await db.$executeRawUnsafe(`VACUUM "SearchPosting", "TranscriptPassage", "RevisionPassage", "SearchTerm"`);
  await db.$executeRawUnsafe(`ANALYZE "SearchPosting" ("termId")`);
  return true;
}
