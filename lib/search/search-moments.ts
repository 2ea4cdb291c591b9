import { getDb } from "@/lib/db/client";
import { cjkNeedles } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { findMoments } from "@/lib/search/find-moments";
import type { SearchScope } from "@/lib/search/search-statement";
import { decodeCursor, type SearchQuery, type SearchResponse } from "@/lib/search/schemas";
import { serializeSearch } from "@/lib/search/serializers";
import { didYouMean } from "@/lib/search/suggest";

/** The moments of what was said that match `query` within `scope`, one page of them. */
export async function searchMoments(
  scope: SearchScope,
  query: SearchQuery,
  options: Parameters<typeof findMoments>[2] = {},
): Promise<SearchResponse> {
  const rows = await findMoments(scope, query, options);
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  const answer = serializeSearch(rows, scope, query, offset, cjkNeedles(query.q));
  // Nothing found: the likeliest spelling of the words nothing in reach holds (while typing, not of a word begun
  // that some word of the index begins).
  if (rows.length === 0 && offset === 0)
    answer.did_you_mean = await didYouMean(
      await getDb(),
      scope,
      query.q,
      query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS,
      query.prefix,
    );
  return answer;
}

/** GET /v1/me/search (and MCP's search_transcripts): moments of what was said in the caller's complete history entries. */
export function searchLibrary(
  userId: string,
  query: SearchQuery,
  options: Parameters<typeof findMoments>[2] = {},
): Promise<SearchResponse> {
  return searchMoments({ kind: "library", userId }, query, options);
}

/**
 * GET /v1/public/search: moments of what was said in published transcripts (unpublished ones are gone at once),
 * or in one followed show's published episodes (`show`, its page's slug).
 */
export function searchPublic(
  query: SearchQuery & { show?: string | null },
  options: Parameters<typeof findMoments>[2] = {},
): Promise<SearchResponse> {
  return searchMoments({ kind: "public", show: query.show ?? null }, query, options);
}
