import { getDb } from "@/lib/db/client";
import { cjkNeedles } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { findMoments, type MomentRow } from "@/lib/search/find-moments";
import { fuse, momentRows, nearestPassages } from "@/lib/search/meaning";
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
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  const rows =
    query.mode === "keyword"
      ? await findMoments(scope, query, options)
      : await byMeaning(scope, query, offset, options);
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

/**
 * A page (one row more than `limit` when there is a next one) by meaning (`mode=meaning`) or by both rankings fused
 * (`hybrid`): each list read from its top to the page's end, fused, sliced. With no vectors to compare (none stored
 * yet, or SEARCH_EMBEDDER=off), hybrid is the keyword search itself.
 */
async function byMeaning(
  scope: SearchScope,
  query: SearchQuery,
  offset: number,
  options: Parameters<typeof findMoments>[2],
): Promise<MomentRow[]> {
  const need = offset + query.limit + 1;
  const meaning = await nearestPassages(scope, query, need);
  if (meaning.length === 0) return query.mode === "meaning" ? [] : findMoments(scope, query, options);
  const keyword =
    query.mode === "meaning" ? [] : await findMoments(scope, { ...query, cursor: null, limit: need }, options);
  const page = fuse(keyword, meaning).slice(offset, offset + query.limit + 1);
  const found = new Map(keyword.map((row) => [row.pid, row]));
  const missing = page.filter(({ pid }) => !found.has(pid)).map(({ pid }) => pid);
  for (const row of await momentRows(scope, missing)) found.set(row.pid, row);
  return page.flatMap(({ pid, score }) => {
    const row = found.get(pid);
    return row ? [{ ...row, rank: score }] : [];
  });
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
