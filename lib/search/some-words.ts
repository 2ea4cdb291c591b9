// When no moment holds every word of a question: the moments that hold its rarer words, ranked as the keyword
// search ranks (an OR of those words, BM25 over the postings), labelled as matching some of its words. A question
// in other words than its moment often still names one thing the moment names (the crop, the place, the engine),
// and a word said in a few passages of the scope says more of where to look than one said everywhere ("way",
// "thing"), which would only fill the page. Which words are rarer is read from the caller's own vocabulary
// (visible-terms.ts), so nothing anyone else holds privately changes which words are kept.
import { getDb } from "@/lib/db/client";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { findMoments, type MomentRow } from "@/lib/search/find-moments";
import { hasCorrections, scopePassages } from "@/lib/search/queries";
import type { SearchQuery } from "@/lib/search/schemas";
import { SCOPE_MAX_PASSAGES } from "@/lib/search/search-plan";
import type { SearchScope } from "@/lib/search/search-statement";
import { visibleCounts } from "@/lib/search/visible-terms";

/**
 * A word is one of a question's rarer words when a passage the caller may see says it and at most this share of
 * the scope's passages do (at least RARE_MIN_PASSAGES: in a small library every word is in a few passages).
 */
export const RARE_SHARE = 0.05;
export const RARE_MIN_PASSAGES = 3;
/** The words of a question looked at, at most (its first ones). */
const SOME_WORDS_MAX = 12;
/** The scope's passages are counted up to this many: past it, RARE_SHARE of it is the bound. */
const SCOPE_COUNTED = 200_000;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** The distinct words of `q`, lower-cased, in order (websearch's own operators aside). */
export function questionWords(q: string): string[] {
  return [...new Set(q.toLowerCase().match(WORD) ?? [])].filter((w) => w !== "or").slice(0, SOME_WORDS_MAX);
}

/**
 * The words of `q` that a passage the caller may see holds and few passages do (RARE_SHARE), each read as every
 * configuration of `configs` reads it: its most frequent reading decides. A stop word of any configuration but
 * `simple` says nothing of a topic and is never kept.
 */
export async function rarerWords(scope: SearchScope, q: string, configs: readonly string[]): Promise<string[]> {
  const words = questionWords(q);
  if (words.length < 2) return [];
  const db = await getDb();
  const topical = configs.some((c) => c !== "simple") ? configs.filter((c) => c !== "simple") : configs;
  const [readings, corrects, passages] = await Promise.all([
    db.$queryRaw<{ nth: number; config: string; lexeme: string | null; id: number | null }[]>`
      SELECT w.nth::int AS nth, c AS "config", l.lexeme, st."id"
        FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, nth)
        CROSS JOIN unnest(${[...configs]}::text[]) AS c
        LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector(c::regconfig, w.word))) AS l(lexeme) ON true
        LEFT JOIN "SearchTerm" st ON st."term" = l.lexeme`,
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
    scopePassages(db, scope, SCOPE_COUNTED),
  ]);
  const bound = Math.max(RARE_MIN_PASSAGES, Math.floor(RARE_SHARE * passages));
  const byWord = words.map((_, i) => readings.filter((row) => row.nth === i + 1));
  const content = byWord.map((rows) =>
    topical.every((config) => rows.some((row) => row.config === config && row.lexeme !== null)) ? rows : [],
  );
  const ids = [...new Set(content.flat().flatMap((row) => (row.id === null ? [] : [row.id])))];
  const counts = await visibleCounts(db, { scope, small: passages <= SCOPE_MAX_PASSAGES, corrects }, ids, bound + 1);
  return words.filter((_, i) => {
    const df = Math.max(0, ...content[i]!.map((row) => (row.id === null ? 0 : (counts.get(row.id) ?? 0))));
    return df > 0 && df <= bound;
  });
}

/**
 * The moments that hold some of `query`'s rarer words (one page of them, or `limit` from the top), ranked as the
 * keyword search ranks them, each `matched: "some_words"`; none for a question with fewer than two words, or
 * with no rarer word said, or that quotes a phrase or excludes a word (it asked for exactly that).
 */
export async function someWordsMoments(
  scope: SearchScope,
  query: SearchQuery,
  options: Parameters<typeof findMoments>[2] = {},
): Promise<MomentRow[]> {
  if (/"|(?:^|\s)-\S/u.test(query.q)) return [];
  const words = await rarerWords(scope, query.q, query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS);
  if (words.length === 0) return [];
  const rows = await findMoments(scope, { ...query, q: words.join(" OR "), prefix: false }, options);
  return rows.map((row) => ({ ...row, matched: "some_words" as const }));
}
