import { cjkNeedles } from "@/lib/search/cjk";
import { findMoments } from "@/lib/search/find-moments";
import type { SearchPlan } from "@/lib/search/search-plan";
import { decodeCursor, type SearchQuery, type SearchResponse } from "@/lib/search/schemas";
import { serializeSearch } from "@/lib/search/serializers";

/** GET /v1/me/search (and MCP's search_transcripts): moments of what was said in the caller's complete history entries. */
export async function searchLibrary(
  userId: string,
  query: SearchQuery,
  options: Partial<SearchPlan> = {},
): Promise<SearchResponse> {
  const scope = { kind: "library", userId } as const;
  const rows = await findMoments(scope, query, options);
  return serializeSearch(rows, scope, query, query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0, cjkNeedles(query.q));
}
