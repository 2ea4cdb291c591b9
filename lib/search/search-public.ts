import { cjkNeedles } from "@/lib/search/cjk";
import { findMoments } from "@/lib/search/find-moments";
import { decodeCursor, type SearchQuery, type SearchResponse } from "@/lib/search/schemas";
import { serializeSearch } from "@/lib/search/serializers";

/** GET /v1/public/search: moments of what was said in published transcripts (unpublished ones are gone at once). */
export async function searchPublic(query: SearchQuery): Promise<SearchResponse> {
  const scope = { kind: "public" } as const;
  const rows = await findMoments(scope, query);
  return serializeSearch(rows, scope, query, query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0, cjkNeedles(query.q));
}
