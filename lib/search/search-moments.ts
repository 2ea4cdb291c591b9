import { getDb } from "@/lib/db/client";
import { cjkNeedles } from "@/lib/search/cjk";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { asSearchError, unlessTimedOut, withSearchDeadline } from "@/lib/search/deadline";
import { findMoments, type MomentRow } from "@/lib/search/find-moments";
import { closenessOf } from "@/lib/embeddings/meaning-profile";
import { configuredEmbedder } from "@/lib/embeddings/registry";
import { fuse } from "@/lib/search/fuse";
import { momentRows } from "@/lib/search/meaning";
import { answerByMeaning, markAnsweringLines } from "@/lib/search/meaning-answer";
import { someWordsMoments } from "@/lib/search/some-words";
import type { SearchScope } from "@/lib/search/search-statement";
import { decodeCursor, type SearchQuery, type SearchResponse } from "@/lib/search/schemas";
import { serializeSearch } from "@/lib/search/serializers";
import { didYouMean } from "@/lib/search/suggest";

/** The query's vector, and whether its words say it is about nothing in reach (nearestPassages). */
type Asked = { vector: Float32Array | null; offTopic: boolean };

/**
 * The moments of what was said that match `query` within `scope`, one page of them, within the search's deadline
 * (SEARCH_TIMEOUT_MS, deadline.ts): `partial` when it cut a stage short, search_timed_out (503) when nothing could be
 * answered in time.
 */
export async function searchMoments(
  scope: SearchScope,
  query: SearchQuery,
  options: Parameters<typeof findMoments>[2] = {},
): Promise<SearchResponse> {
  try {
    const { value, partial } = await withSearchDeadline(() => answer(scope, query, options));
    return { ...value, partial };
  } catch (error) {
    throw asSearchError(error);
  }
}

/** The share of what is left of the deadline the meaning list may take: the keyword list keeps the rest. */
const MEANING_SHARE = 0.5;

async function answer(
  scope: SearchScope,
  query: SearchQuery,
  options: Parameters<typeof findMoments>[2],
): Promise<SearchResponse> {
  const offset = query.cursor ? (decodeCursor(query.cursor) ?? 0) : 0;
  const asked: Asked = { vector: null, offTopic: false };
  const rows =
    query.mode === "keyword"
      ? await findMoments(scope, query, options)
      : await byMeaning(scope, query, offset, options, asked);
  const found = serializeSearch(rows, scope, query, offset, cjkNeedles(query.q));
  found.nothing_close = asked.offTopic;
  // Nothing holds every word (nothing found, or only moments of some of them): the likeliest spelling of the words
  // nothing in reach holds (while typing, not of a word begun that some word of the index begins). Not for a question about nothing here: its words are not misspelt, only
  // unsaid, and each would be "corrected" to some unrelated word the library holds.
  if (rows.every((row) => row.matched === "some_words") && offset === 0 && !asked.offTopic)
    found.did_you_mean = await unlessTimedOut(
      async () =>
        didYouMean(
          await getDb(),
          scope,
          query.q,
          query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS,
          query.prefix,
        ),
      null,
    );
  return found;
}

/**
 * A page (one row more than `limit` when there is a next one) by meaning (`mode=meaning`) or by both rankings fused
 * (`hybrid`): each list read from its top to the page's end, fused (the meaning list at its embedder's weight),
 * sliced. With no vectors to compare (none stored yet, or SEARCH_EMBEDDER=off) or nothing close enough, hybrid is
 * the keyword search itself, as for a question about nothing in reach (`asked.offTopic`). Where no moment holds every
 * word, hybrid takes the moments that hold some of its rarer words instead (some-words.ts), fused at the meaning
 * list's weight, not first. A moment found by meaning alone is moved to its line that answers.
 */
async function byMeaning(
  scope: SearchScope,
  query: SearchQuery,
  offset: number,
  options: Parameters<typeof findMoments>[2],
  asked: Asked,
): Promise<MomentRow[]> {
  const need = offset + query.limit + 1;
  const embedder = configuredEmbedder();
  const answer = await unlessTimedOut(
    () => answerByMeaning(scope, query, need, embedder),
    { nearest: [], vector: null, nothingClose: false },
    MEANING_SHARE,
  );
  [asked.vector, asked.offTopic] = [answer.vector, answer.nothingClose];
  const meaning = answer.nearest;
  if (meaning.length === 0 || !embedder) {
    if (query.mode === "meaning") return [];
    const said = await findMoments(scope, query, options);
    if (said.length > 0) return said;
    // A later page past the last whole match is empty; some words only where nothing holds every word.
    const none = offset === 0 || (await findMoments(scope, { ...query, cursor: null, limit: 1 }, options)).length === 0;
    return none ? someWordsMoments(scope, query, options) : said;
  }
  const whole =
    query.mode === "meaning" ? [] : await findMoments(scope, { ...query, cursor: null, limit: need }, options);
  const some =
    query.mode === "hybrid" && whole.length === 0
      ? await someWordsMoments(scope, { ...query, cursor: null, limit: need }, options)
      : [];
  const keyword = whole.length > 0 ? whole : some;
  const weight = embedder.profile.fusionWeight;
  const page = fuse(keyword, meaning, weight, some.length > 0 ? weight : null).slice(offset, offset + query.limit + 1);
  const found = new Map(keyword.map((row) => [row.pid, row]));
  const missing = page.filter(({ pid }) => !found.has(pid)).map(({ pid }) => pid);
  for (const row of await momentRows(scope, missing)) found.set(row.pid, row);
  const rows = page.flatMap(({ pid, score, matched, similarity }): MomentRow[] => {
    const row = found.get(pid);
    if (!row) return [];
    const closeness = similarity === null ? null : closenessOf(embedder.profile, similarity);
    return [{ ...row, rank: score, matched, closeness }];
  });
  await markAnsweringLines(rows, asked.vector, embedder);
  return rows;
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
