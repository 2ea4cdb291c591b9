import type { Db } from "@/lib/db/client";
import { hasCjk } from "@/lib/search/cjk";
import { scopePassages } from "@/lib/search/queries";
import { SCOPE_MAX_PASSAGES } from "@/lib/search/search-plan";
import type { SearchScope } from "@/lib/search/search-statement";
import {
  visibleCounts,
  visibleSpellings,
  visibleTermsBeginning,
  writtenAs,
  type Spelling,
  type Vocabulary,
} from "@/lib/search/visible-terms";

export { likePrefix } from "@/lib/search/visible-terms";

// Search the way people type: a word begun is read as the words of the index it begins (a prefix while typing in
// the dashboard's box), and a query that finds nothing gets the likeliest spelling of its unknown words ("did you
// mean"). Both read only the words passages the caller may see hold (visible-terms.ts): what anyone else holds
// privately never shows, not even as the absence of a suggestion.

/** At most this many words of the index stand for a word begun. */
export const PREFIX_TERMS = 16;
/** Spellings whose written form is looked up, best first, before giving up on a word. */
const WRITTEN_TRIES = 3;
/** Words longer than this are not edited letter by letter (their spellings come from trigrams alone). */
const EDITED_LENGTH = 24;

/** Where `scope`'s vocabulary is read: from its passages when it has at most SCOPE_MAX_PASSAGES. */
export async function vocabularyOf(db: Db, scope: SearchScope): Promise<Vocabulary> {
  return { scope, small: (await scopePassages(db, scope, SCOPE_MAX_PASSAGES + 1)) <= SCOPE_MAX_PASSAGES };
}

/**
 * The words a passage the caller may see holds that `lexeme` (a word begun, as a configuration reads it) begins,
 * shortest first. A CJK character begins the bigrams it starts: a one-character query, which has no bigram of its
 * own, finds them.
 */
export function termsStartingWith(
  db: Db,
  vocabulary: Vocabulary,
  lexeme: string,
  limit = PREFIX_TERMS,
): Promise<string[]> {
  return visibleTermsBeginning(db, vocabulary, lexeme, limit);
}

/** The last word of `q` when it is being typed: a plain word at the end (not quoted, not -excluded, not OR). */
export function wordBegun(q: string): { before: string; word: string } | null {
  if (/\s$/.test(q) || (q.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const match = /(^|\s)([\p{L}\p{N}][\p{L}\p{N}'’]*)$/u.exec(q);
  if (!match || /^or$/i.test(match[2]!)) return null;
  return { before: q.slice(0, match.index + match[1]!.length), word: match[2]! };
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
 * Damerau-Levenshtein distance (optimal string alignment: a swap of two neighbours is one edit) between two words,
 * by code points. Hand-written: the packages in node_modules that do this are only other tools' dependencies.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => i + j));
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[x.length]![y.length]!;
}

/**
 * Every word one edit from `word`: a letter left out, two neighbours swapped, a letter changed or added (the
 * Latin alphabet and the word's own letters). The likeliest misspellings of a word are one edit from it.
 */
export function editsOf(word: string): string[] {
  const letters = [...word];
  if (letters.length < 2 || letters.length > EDITED_LENGTH) return [];
  const alphabet = [...new Set([..."abcdefghijklmnopqrstuvwxyz", ...letters])];
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const [head, tail] = [letters.slice(0, i), letters.slice(i)];
    if (tail.length > 0) out.add([...head, ...tail.slice(1)].join(""));
    if (tail.length > 1) out.add([...head, tail[1], tail[0], ...tail.slice(2)].join(""));
    for (const c of alphabet) {
      if (tail.length > 0) out.add([...head, c, ...tail.slice(1)].join(""));
      out.add([...head, c, ...tail].join(""));
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * The likeliest of `spellings` for a word typed as `typed` (read as `lexemes`): the fewest edits from the word or
 * one of its readings, then the most passages holding it (the commoner word is the likelier meant), then the most
 * alike by trigrams.
 */
export function rankSpellings(typed: string, lexemes: readonly string[], spellings: readonly Spelling[]): Spelling[] {
  const forms = [typed, ...lexemes];
  const distance = (term: string) => Math.min(...forms.map((form) => editDistance(form, term)));
  return spellings
    .map((s) => ({ s, d: distance(s.term) }))
    .sort((a, b) => a.d - b.d || b.s.count - a.s.count || b.s.alike - a.s.alike || (a.s.term < b.s.term ? -1 : 1))
    .map(({ s }) => s);
}

/**
 * The query with each of its plain words that no passage the caller may see holds replaced by the likeliest word
 * one does hold (rankSpellings; written as a passage writes it), or null when nothing is to change. Asked for
 * when a search finds nothing.
 */
export async function didYouMean(
  db: Db,
  scope: SearchScope,
  q: string,
  configs: readonly string[],
  /** The query is being typed: its last word, begun, is not misspelt while some word the caller may see begins so. */
  typing = false,
): Promise<string | null> {
  const words = plainWords(q);
  if (words.length === 0) return null;
  const begun = typing && wordBegun(q) ? words.length : 0;
  const read = await db.$queryRawUnsafe<{ nth: number; lexemes: string[] | null }[]>(
    `SELECT w.nth::int AS nth, array_agg(DISTINCT l.lexeme) FILTER (WHERE l.lexeme IS NOT NULL) AS lexemes
       FROM unnest($1::text[]) WITH ORDINALITY AS w(word, nth)
       CROSS JOIN unnest($2::text[]) AS c
       LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector(c::regconfig, w.word))) AS l(lexeme) ON true
       GROUP BY w.nth`,
    words.map((w) => w.word.toLowerCase()),
    [...configs],
  );
  const lexemesOf = new Map(read.map((row) => [row.nth, row.lexemes ?? []]));
  const all = [...new Set(read.flatMap((row) => row.lexemes ?? []))];
  if (all.length === 0) return null;
  const vocabulary = await vocabularyOf(db, scope);
  const ids = await db.$queryRawUnsafe<{ id: number; term: string }[]>(
    `SELECT "id", "term" FROM "SearchTerm" WHERE "term" = ANY ($1::text[])`,
    all,
  );
  const held = await visibleCounts(
    db,
    vocabulary,
    ids.map((row) => row.id),
    1,
  );
  const heldTerms = new Set(ids.filter((row) => held.has(row.id)).map((row) => row.term));
  let suggestion = q;
  // From the last word back, so that earlier offsets stay true.
  for (let nth = words.length; nth >= 1; nth--) {
    const word = words[nth - 1]!;
    const lexemes = lexemesOf.get(nth) ?? [];
    if (lexemes.length === 0 || lexemes.some((lexeme) => heldTerms.has(lexeme))) continue;
    if (nth === begun) {
      const begins = await Promise.all(lexemes.map((lexeme) => termsStartingWith(db, vocabulary, lexeme, 1)));
      if (begins.some((terms) => terms.length > 0)) continue;
    }
    const typed = word.word.toLowerCase();
    const edits = [...new Set([typed, ...lexemes].flatMap(editsOf))];
    const ranked = rankSpellings(typed, lexemes, await visibleSpellings(db, vocabulary, lexemes, edits));
    for (const spelling of ranked.slice(0, WRITTEN_TRIES)) {
      const written = await writtenAs(db, vocabulary, spelling.term);
      if (!written) continue;
      if (written !== typed)
        suggestion = suggestion.slice(0, word.at) + written + suggestion.slice(word.at + word.word.length);
      break;
    }
  }
  return suggestion === q ? null : suggestion;
}
