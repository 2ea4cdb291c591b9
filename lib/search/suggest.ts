import type { Db } from "@/lib/db/client";
import { hasCjk } from "@/lib/search/cjk";
import { passageVisibility, type SearchScope } from "@/lib/search/search-statement";

// Search the way people type: a word begun is read as the words of the index it begins (a prefix while typing in
// the dashboard's box), and a query that finds nothing gets the likeliest spelling of its unknown words ("did you
// mean"). Both read the vocabulary of every passage ("SearchTerm", migration search_suggestions: a prefix index and
// a trigram index), and a suggestion is only ever a word the caller could find: one held by a passage they may see.

/** At most this many words of the index stand for a word begun. */
export const PREFIX_TERMS = 16;
/** The vocabulary read for a word begun before the shortest are taken: a one-letter prefix begins thousands. */
const PREFIX_SCAN = 500;
/** The likeliest spellings looked at per unknown word (pg_trgm's `%`: similarity ≥ 0.3). */
const SPELLINGS = 12;
/** Postings looked at to find one a caller may see: a word held only by others' passages is not suggested. */
const VISIBLE_PROBE = 200;

/** A LIKE pattern for the text as a prefix: its own `%`, `_` and `\` stand for themselves. */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The words of the index that `lexeme` (a word begun, as a configuration reads it) begins, shortest first. A CJK
 * character begins the bigrams it starts: a one-character query, which has no bigram of its own, finds them.
 */
export async function termsStartingWith(db: Db, lexeme: string, limit = PREFIX_TERMS): Promise<string[]> {
  if (lexeme === "") return [];
  const rows = await db.$queryRawUnsafe<{ term: string }[]>(
    `SELECT term FROM (SELECT st."term" FROM "SearchTerm" st WHERE st."term" LIKE $1 LIMIT ${PREFIX_SCAN}) AS begun
     ORDER BY char_length(term), term LIMIT $2`,
    likePrefix(lexeme),
    limit,
  );
  return rows.map((row) => row.term);
}

/** The last word of `q` when it is being typed: a plain word at the end (not quoted, not -excluded, not OR). */
export function wordBegun(q: string): { before: string; word: string } | null {
  if (/\s$/.test(q) || (q.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const match = /(^|\s)([\p{L}\p{N}][\p{L}\p{N}'’]*)$/u.exec(q);
  if (!match || /^or$/i.test(match[2]!)) return null;
  return { before: q.slice(0, match.index + match[1]!.length), word: match[2]! };
}

/** Passages "p" (of "SearchPassage") the scope may see: the search statement's rule (passageVisibility). */
function visibleSql(scope: SearchScope, user: string | null, show: string | null): string {
  return passageVisibility({ user: scope.kind === "library" ? user : null, show }).visible;
}

/** A plain word of a query, where it stands. */
interface QueryWord {
  at: number;
  word: string;
}

/** The plain words of `q`: not in quotes, not -excluded, not OR, no CJK (a CJK run is found inside runs already). */
export function plainWords(q: string): QueryWord[] {
  const words: QueryWord[] = [];
  let quoted = false;
  for (const match of q.matchAll(/"|(^|[\s(])(-?)([\p{L}\p{N}][\p{L}\p{N}'’]*)(?=$|[\s)"])/gu)) {
    if (match[0] === '"') {
      quoted = !quoted;
      continue;
    }
    const [, lead, minus, word] = match;
    if (quoted || minus || /^or$/i.test(word!) || hasCjk(word!)) continue;
    words.push({ at: match.index + lead!.length, word: word! });
  }
  return words;
}

/**
 * The query with each of its plain words that no passage the caller may see holds replaced by the likeliest word
 * one does hold (the most alike by trigrams, then the most used; written as a passage writes it), or null when
 * nothing is to change. Asked for when a search finds nothing.
 */
export async function didYouMean(
  db: Db,
  scope: SearchScope,
  q: string,
  configs: readonly string[],
  /** The query is being typed: its last word, begun, is not misspelt while some word of the index begins so. */
  typing = false,
): Promise<string | null> {
  const words = plainWords(q);
  if (words.length === 0) return null;
  const begun = typing && wordBegun(q) ? words.length : 0;
  const params: unknown[] = [];
  const user = scope.kind === "library" ? (params.push(scope.userId), `$${params.length}`) : null;
  const show = scope.kind === "public" && scope.show ? (params.push(scope.show), `$${params.length}`) : null;
  params.push(words.map((w) => w.word.toLowerCase()));
  const wordsParam = `$${params.length}`;
  params.push([...configs]);
  const configsParam = `$${params.length}`;
  params.push(begun);
  const begunParam = `$${params.length}`;
  // Per word: its lexemes under the configurations; whether a visible passage holds one; if not, the likeliest
  // visible term and, from one passage holding it, the word as written there.
  const rows = await db.$queryRawUnsafe<{ nth: number; replacement: string | null }[]>(
    `WITH words AS (
       SELECT w.word, w.nth, array_agg(DISTINCT l.lexeme) FILTER (WHERE l.lexeme IS NOT NULL) AS lexemes
       FROM unnest(${wordsParam}::text[]) WITH ORDINALITY AS w(word, nth)
       CROSS JOIN unnest(${configsParam}::text[]) AS c
       LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector(c::regconfig, w.word))) AS l(lexeme) ON true
       GROUP BY w.word, w.nth
     ), unknown AS (
       SELECT w.* FROM words w
       WHERE w.lexemes IS NOT NULL
         AND NOT (w.nth = ${begunParam}::int AND EXISTS (SELECT 1 FROM "SearchTerm" st
           WHERE st."term" LIKE replace(replace(replace(w.lexemes[1], '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'))
         AND NOT EXISTS (
         SELECT 1 FROM "SearchTerm" st
         CROSS JOIN LATERAL (SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = st."id" LIMIT ${VISIBLE_PROBE}) AS sp
         JOIN "SearchPassage" p ON p."pid" = sp."pid"
         WHERE st."term" = ANY (w.lexemes) AND ${visibleSql(scope, user, show)})
     )
     SELECT u.nth::int AS nth, best.replacement
     FROM unknown u
     CROSS JOIN LATERAL (
       SELECT written.word AS replacement
       FROM (
         SELECT st."id", st."term", similarity(st."term", u.lexemes[1]) AS alike
         FROM "SearchTerm" st WHERE st."term" % u.lexemes[1] AND st."term" <> ALL (u.lexemes)
         ORDER BY alike DESC, st."term" LIMIT ${SPELLINGS}
       ) AS spelling
       CROSS JOIN LATERAL (
         SELECT p."pid", p."transcriptId", p."revisionId", p."segFrom", p."segTo", p."config"
         FROM (SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = spelling."id" ORDER BY sp."impact" DESC LIMIT ${VISIBLE_PROBE}) AS sp
         JOIN "SearchPassage" p ON p."pid" = sp."pid"
         WHERE ${visibleSql(scope, user, show)}
         LIMIT 1
       ) AS p
       CROSS JOIN LATERAL (
         SELECT lower(w) AS word
         FROM "Transcript" t
         LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
         CROSS JOIN LATERAL generate_series(p."segFrom", p."segTo") AS i
         CROSS JOIN LATERAL regexp_split_to_table(coalesce(rev."segments", t."segments") -> i ->> 'text', '[^[:alnum:]''’]+') AS w
         WHERE t."id" = p."transcriptId" AND spelling."term" = ANY (tsvector_to_array(to_tsvector(p."config"::regconfig, w)))
         LIMIT 1
       ) AS written
       ORDER BY spelling.alike DESC, spelling."term"
       LIMIT 1
     ) AS best`,
    ...params,
  );
  if (rows.length === 0) return null;
  let suggestion = q;
  // From the last word back, so that earlier offsets stay true.
  for (const row of [...rows].sort((a, b) => b.nth - a.nth)) {
    const word = words[row.nth - 1]!;
    if (!row.replacement || row.replacement === word.word.toLowerCase()) continue;
    suggestion = suggestion.slice(0, word.at) + row.replacement + suggestion.slice(word.at + word.word.length);
  }
  return suggestion === q ? null : suggestion;
}
