import { cached } from "@/lib/cache/cached";
import { listPublished, type IndexRow } from "@/lib/publishing/public-index";
import { PUBLIC_INDEX_TAG } from "@/lib/cache/public-pages";

// /explore's first page (no search, no cursor), the one most visitors see: kept in Next.js's data cache
// under PUBLIC_INDEX_TAG, which every publish and unpublish expires, so it reads no database.

const CACHE_SECONDS = 300;

type StoredRow = Omit<IndexRow, "publishedAt" | "updatedAt"> & { publishedAt: string; updatedAt: string };

const stored = cached(
  async (limit: number): Promise<{ rows: StoredRow[]; nextCursor: string | null }> => {
    const page = await listPublished({ limit });
    return {
      rows: page.rows.map((row) => ({
        ...row,
        publishedAt: row.publishedAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      })),
      nextCursor: page.nextCursor,
    };
  },
  "explore-newest",
  [PUBLIC_INDEX_TAG],
  CACHE_SECONDS,
);

/** The newest `limit` published transcripts, as listPublished gives them. */
export async function newestPublished(limit: number): Promise<{ rows: IndexRow[]; nextCursor: string | null }> {
  const page = await stored(limit);
  return {
    rows: page.rows.map((row) => ({
      ...row,
      publishedAt: new Date(row.publishedAt),
      updatedAt: new Date(row.updatedAt),
    })),
    nextCursor: page.nextCursor,
  };
}
