import { cjkNeedles } from "@/lib/search/cjk";
import { findMoments } from "@/lib/search/find-moments";
import type { SearchPlan } from "@/lib/search/search-plan";
import { decodeCursor, type SearchQuery, type SearchResponse } from "@/lib/search/schemas";
import { serializeSearch } from "@/lib/search/serializers";

/** GET /v1/public/search: moments of what was said in published transcripts (unpublished ones are gone at once). */
export async function searchPublic(query: SearchQuery, options: Partial<SearchPlan> = {}): Promise<SearchResponse> {
  const scope = { kind: "public" } as const;
  const rows = await findMoments(scope, query, options);
  return serializeSearch(rows, scope, query, query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0, cjkNeedles(query.q));
}
