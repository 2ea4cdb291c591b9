import type { Db } from "@/lib/db/client";
import { RequestValidationError } from "@/lib/http/validation";
import { rewriteCjkQuery } from "@/lib/search/cjk";
import { SEARCH_CONFIGS } from "@/lib/search/config";
import { readingsOf } from "@/lib/search/queries";
import { collapseNegations, positiveLexemes } from "@/lib/search/query-terms";

// The percolator's keys: for each way a configuration reads the query (the search's own parser, so a word is
// keyed exactly as the index stores it), the lexemes a matching passage must hold one of. A conjunction (phrases
// included) is keyed by its rarest lexeme alone: every match holds it. A reading with OR is keyed by every
// positive lexeme: a superset of the branches, each branch holds one. A transcript's check joins its own
// lexemes with these keys, so its cost follows the transcript's vocabulary, not how many alerts are stored.

/** Postings counted per lexeme to find a conjunction's rarest (bounded: past it, equally common). */
const RARITY_BOUND = 10_000;

function refuse(query: string, msg: string): RequestValidationError {
  return new RequestValidationError([
    { type: "value_error", loc: ["body", "query"], msg: `Value error, ${msg}`, input: query, ctx: { error: {} } },
  ]);
}

/** The lexemes that key an alert of `query` (mode words); a 422 when nothing in it can be looked up. */
export async function alertTerms(db: Db, query: string): Promise<string[]> {
  const rows = await readingsOf(db, collapseNegations(rewriteCjkQuery(query)), SEARCH_CONFIGS).catch(() => {
    throw refuse(query, 'this query cannot be read; use plain words, "phrases", -excluded words and OR');
  });
  const findable = rows.filter((row) => row.query !== "" && row.indexable !== "T" && row.indexable !== "");
  // Words that are stop words in English (the service's default language) are plain words to the configurations
  // of other languages, which would key them: an alert that fires on any passage of those languages saying "the".
  const english = rows.find((row) => row.config === "english");
  if (findable.length === 0 || (english && !findable.includes(english)))
    throw refuse(
      query,
      "give at least one word to find that is not a stop word (a query of only -excluded or common words would match everything)",
    );
  const keys = new Set<string>();
  const conjunctions: string[][] = [];
  for (const row of new Map(findable.map((r) => [r.indexable, r])).values()) {
    const lexemes = positiveLexemes(row.indexable);
    if (row.indexable.includes("|")) lexemes.forEach((l) => keys.add(l));
    else conjunctions.push(lexemes);
  }
  const all = [...new Set(conjunctions.flat())];
  const rarity = new Map<string, number>();
  if (all.length > 0) {
    const counted = await db.$queryRaw<{ term: string; n: number }[]>`
      SELECT q."term", (SELECT count(*)::int FROM (SELECT 1 FROM "SearchTerm" st JOIN "SearchPosting" sp ON sp."termId" = st."id"
        WHERE st."term" = q."term" LIMIT ${RARITY_BOUND}) x) AS n FROM unnest(${all}::text[]) AS q("term")`;
    for (const row of counted) rarity.set(row.term, row.n);
  }
  for (const lexemes of conjunctions) {
    // The rarest; among equals the longest (a longer word is the likelier to be rare).
    const [rarest] = [...lexemes].sort(
      (a, b) => (rarity.get(a) ?? 0) - (rarity.get(b) ?? 0) || b.length - a.length || a.localeCompare(b),
    );
    if (rarest) keys.add(rarest);
  }
  return [...keys];
}
