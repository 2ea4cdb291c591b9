import { findMatches } from "@/lib/search/find-matches";
import { findPublished } from "@/lib/publishing/public-transcript";
import { serializePublicTranscript } from "@/lib/publishing/serializers";

// How many times the public viewer (/t/{slug}?q=…) will say a query occurs in a transcript, for Explore's
// moments: the same text the page draws (the publisher's view, lib/publishing) counted by
// the viewer's own rule (findMatches: each case-insensitive occurrence of the words, in order, in one line).
// The index search (find-moments.ts) finds moments by stems and ranks passages; it never counts. This reads
// whole transcripts, so it is for the few on one page only: at most VIEWER_COUNT_MAX_TRANSCRIPTS slugs.

export const VIEWER_COUNT_MAX_TRANSCRIPTS = 20;

/** Slug → the viewer's match count for `q`; a slug no longer published is left out. */
export async function viewerMatchCounts(slugs: readonly string[], q: string): Promise<Map<string, number>> {
  const distinct = [...new Set(slugs)].slice(0, VIEWER_COUNT_MAX_TRANSCRIPTS);
  const counted = await Promise.all(
    distinct.map(async (slug) => {
      const row = await findPublished(slug);
      if (!row) return null;
      const segments = serializePublicTranscript(row).segments ?? [];
      return [slug, findMatches(segments, q).length] as const;
    }),
  );
  return new Map(counted.filter((entry) => entry !== null));
}
